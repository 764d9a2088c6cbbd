//! `poker camicia --trace`: a game round by round, as a table.

use poker_core::camicia::{Card, reference};

/// The game round by round as an aligned Markdown table (readable in a
/// terminal, rendered as a table in Markdown), then the loop's rounds if it
/// loops and the same three summary lines as the untraced form.
pub fn text(a: &[Card], b: &[Card]) -> String {
    let trace = reference::trace(a, b);
    let cards = |cs: &[Card]| {
        if cs.is_empty() {
            "(none)".to_string()
        } else {
            cs.iter().map(Card::to_string).collect::<Vec<_>>().join(" ")
        }
    };
    let mut rows: Vec<[String; 5]> =
        vec![["round", "player A", "player B", "pile", "owed"].map(String::from)];
    for row in &trace.rows {
        let owed = match row.owed {
            Some((player, n)) => format!("player {player}: {n}"),
            None => "-".to_string(),
        };
        rows.push([
            row.round.to_string(),
            cards(&row.a),
            cards(&row.b),
            cards(&row.pile),
            owed,
        ]);
    }
    let mut widths = [3usize; 5];
    for row in &rows {
        for (width, cell) in widths.iter_mut().zip(row) {
            *width = (*width).max(cell.chars().count());
        }
    }
    let line = |cells: &[String; 5]| {
        let padded: Vec<String> = cells
            .iter()
            .zip(widths)
            .map(|(cell, width)| format!("{cell:<width$}"))
            .collect();
        format!("| {} |\n", padded.join(" | "))
    };
    let mut out = line(&rows[0]);
    out += &line(&widths.map(|w| "-".repeat(w)));
    for row in &rows[1..] {
        out += &line(row);
    }
    if let Some((round, first)) = trace.repeat {
        out += &format!("round {round} starts like round {first} (number cards alike): a loop\n");
    }
    let o = trace.outcome;
    out += &format!(
        "status: {}\ncards: {}\ntricks: {}\n",
        o.status, o.cards, o.tricks
    );
    out
}
