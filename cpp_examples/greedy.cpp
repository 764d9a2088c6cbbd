// greedy.cpp: c_examples/greedy.c in C++17, the same one-card lookahead
// and weights, so it places every card where the C greedy does. Each card
// goes to the allowed column (one of the shortest, by the balance rule)
// where it raises that column's promise the most. A column's promise is a
// rough value of what its cards already make or can still become: equal
// values (pair, trips, quads), a flush while every card shares a suit, a
// straight while all values are distinct and fit in 9-K or 10-A.
#include <algorithm>
#include <array>
#include <cstddef>
#include <optional>
#include <vector>

#include "poker.h"

namespace {

struct Card {
    int value;  // 1..6: 9, 10, J, Q, K, A
    int color;  // 1..4: spades, hearts, diamonds, clubs
};

// Promise of a flush, a straight, by the number of cards in it, and of
// equal values, by the count of one value (the C greedy's weights).
constexpr std::array<double, 6> kFlush{0.0, 0.0, 0.8, 2.2, 4.3, 7.0};
constexpr std::array<double, 6> kStraight{0.0, 0.0, 0.1, 0.5, 1.5, 4.0};
constexpr std::array<double, 5> kSame{0.0, 0.0, 2.0, 4.5, 7.0};

class Column {
public:
    std::size_t height() const { return cards_.size(); }
    void add(Card card) { cards_.push_back(card); }

    // How promising this column is, with `extra` added if given.
    double promise(std::optional<Card> extra = std::nullopt) const
    {
        std::vector<Card> cards = cards_;
        if (extra)
            cards.push_back(*extra);
        std::array<int, 7> count{};
        bool one_suit = true;
        bool distinct = true;
        int lo = 7;
        int hi = 0;
        for (const Card& card : cards) {
            if (++count[card.value] > 1)
                distinct = false;
            if (card.color != cards.front().color)
                one_suit = false;
            lo = std::min(lo, card.value);
            hi = std::max(hi, card.value);
        }
        double score = 0.0;
        for (int value = 1; value <= 6; ++value)
            score += kSame[count[value]];
        const std::size_t n = cards.size();
        if (one_suit)
            score += kFlush[n];
        const bool straight = distinct && hi - lo <= 4;
        if (straight)
            score += kStraight[n];
        if (one_suit && straight && n == 5)
            score += 1.0;  // straight flush: 8, not 7
        return score;
    }

private:
    std::vector<Card> cards_;
};

class Greedy {
public:
    // The column (1..4) for `card`, remembered as placed there.
    int choose(Card card)
    {
        std::size_t lowest = columns_[0].height();
        for (const Column& column : columns_)
            lowest = std::min(lowest, column.height());
        std::size_t best = 0;
        double best_gain = -1e9;
        for (std::size_t i = 0; i < columns_.size(); ++i) {
            if (columns_[i].height() != lowest)
                continue;  // balance rule
            const double gain = columns_[i].promise(card) - columns_[i].promise();
            if (gain > best_gain) {
                best_gain = gain;
                best = i;
            }
        }
        columns_[best].add(card);
        return static_cast<int>(best) + 1;
    }

private:
    std::array<Column, 4> columns_;
};

}  // namespace

int main()
{
    Greedy greedy;
    p_startgame();
    for (int i = 0; i < 20; ++i) {
        Card card{};
        p_look(&card.value, &card.color);
        p_place(greedy.choose(card));
    }
    return 0;  // not reached: the 20th p_place stops the program
}
