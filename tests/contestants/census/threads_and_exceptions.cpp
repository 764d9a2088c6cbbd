// threads_and_exceptions.cpp: c_examples/greedy.c written as a C++17 programmer would
// (std::array, std::vector, algorithms, iostream, a lambda, an exception,
// a worker thread), so that it makes the calls libstdc++ programs make:
// the seccomp filter's census runs it. Same choices as greedy.c, hence the
// same score on every deck.
#include <algorithm>
#include <array>
#include <iostream>
#include <numeric>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

extern "C" {
#include "poker.h"
}

namespace {

struct Card {
    int value;
    int color;
};

// greedy.c's weights: by cards in a flush / a straight, by count of a value.
constexpr std::array<double, 6> FLUSH{0.0, 0.0, 0.8, 2.2, 4.3, 7.0};
constexpr std::array<double, 6> STRAIGHT{0.0, 0.0, 0.1, 0.5, 1.5, 4.0};
constexpr std::array<double, 5> SAME{0.0, 0.0, 2.0, 4.5, 7.0};

double promise(const std::vector<Card> &cards)
{
    std::array<int, 7> count{};
    for (const Card &c : cards)
        count.at(c.value)++;
    const bool one_suit = std::all_of(cards.begin(), cards.end(),
                                      [&](const Card &c) { return c.color == cards[0].color; });
    const bool distinct = std::all_of(count.begin(), count.end(), [](int n) { return n <= 1; });
    int lo = 7, hi = 0;
    for (const Card &c : cards) {
        lo = std::min(lo, c.value);
        hi = std::max(hi, c.value);
    }
    double score = 0.0;
    for (int v = 1; v <= 6; v++)
        score += SAME.at(count[v]);
    if (one_suit)
        score += FLUSH.at(cards.size());
    if (distinct && hi - lo <= 4)
        score += STRAIGHT.at(cards.size());
    if (one_suit && distinct && hi - lo <= 4 && cards.size() == 5)
        score += 1.0; // straight flush: 8, not 7
    return score;
}

std::array<std::vector<Card>, 4> columns;

int choose(Card card)
{
    std::size_t lowest = 5;
    for (const auto &col : columns)
        lowest = std::min(lowest, col.size());
    int best = -1;
    double best_gain = -1e9;
    for (int i = 0; i < 4; i++) {
        if (columns[i].size() != lowest)
            continue; // balance rule
        std::vector<Card> with = columns[i];
        with.push_back(card);
        const double gain = promise(with) - promise(columns[i]);
        if (gain > best_gain) {
            best_gain = gain;
            best = i;
        }
    }
    if (best < 0)
        throw std::logic_error("no column allowed");
    columns[best].push_back(card);
    return best + 1;
}

} // namespace

int main()
{
    // A worker thread and an exception caught, before the game starts.
    double total = 0.0;
    std::thread worker([&] { total = std::accumulate(FLUSH.begin(), FLUSH.end(), 0.0); });
    worker.join();
    try {
        (void)std::string("census").at(99);
    } catch (const std::out_of_range &) {
        std::cerr << "weights " << total << "\n";
    }
    p_startgame();
    for (int i = 1; i <= 20; i++) {
        int v = 0, c = 0;
        p_look(&v, &c);
        p_place(choose(Card{v, c}));
    }
    return 0; // not reached: the 20th p_place ends the program
}
