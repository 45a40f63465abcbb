//! BENCHMARKS.md's "Graph quality" section, from `cosmo-bench graph`'s lines.

use std::fmt::Write as _;

use crate::report::Row;
use crate::text::{f, num, s};

const CORPORA: [(&str, &str); 3] = [
    ("generated", "generated conversations"),
    ("sample", "hand-checked sample"),
    ("heldout", "held-out sample"),
];

pub fn section(d: &mut String, lines: &[Row], types: &[Row]) {
    let of = |corpus: &str| lines.iter().find(|r| s(r, "corpus") == corpus);
    let sources = |corpus: &str| of(corpus).map_or("?", |r| s(r, "sources"));
    let _ = write!(
        d,
        "
## Graph quality: the offline model's people and things against a gold list

```sh
./target/release/cosmo-bench graph   # --conversations N, --verbose (each miss and false find)
```

What the graph holds after `extract-entities` with the offline model: each Source goes
the pipeline's way (rendered, a transcript cleaned, extracted with its speakers and the
owner as context, then the filter: confidence ≥ 7/10 and at least three subpoints), and
its kept People and Entities are checked against a gold list. Three corpora
(`tests/bench/graph/`):

* **generated conversations** ({generated}, fixed seed): two or three speakers, one of
  them also called by a short form of their name (\"Mel\", \"Kate\", \"Liz\"), a friend
  introduced by full name and then called by first name, a friend with a given name no
  word list holds, a place, an organisation, a work (book, game, show or album), a pet
  and an event, each told in three or four lines drawn from templates; greetings and
  interjections before names (\"Woohoo Mel\", \"Anytime Jon\", \"Aww Odalys is the
  sweetest\"), titles and names opening sentences, some lines with a cue to what a name
  is (\"playing …\", \"my dog …\", \"moved to …\") and many with none;
* **hand-checked sample** ({sample}): an email, a Slack thread and a meeting transcript
  written as people write them, with the gold list a reader would file: each person and
  thing named or referred to in at least three sentences (the filter keeps nothing told
  in fewer); names in passing count neither way;
* **held-out sample** ({heldout}): a catch-up chat between two friends and a Slack
  welcome thread, written the same way after the rules were tuned on the two above, and
  not tuned on.

A Person node is right when its name is a gold person's name or alias and no other node
already stands for that person (a second node for one person is wrong). Person recall is
the share of gold people some node stands for. **Aliases merged** is the share of gold
people the text calls by more than one name (\"Mel\" and Melanie, \"Sarah\" after Sarah
Chen) that have exactly one node, carrying the fullest name. An Entity node is right
when its name is a gold entity's; by type, a node typed T is right when it is a gold
entity of type T, and a gold entity is found as T when a node of its name is typed T.

| corpus | Sources | person precision | person recall | aliases merged | entity precision | entity recall |
|---|---:|---:|---:|---:|---:|---:|
",
        generated = sources("generated"),
        sample = sources("sample"),
        heldout = sources("heldout"),
    );
    for (corpus, label) in CORPORA {
        let Some(r) = of(corpus) else { continue };
        let _ = writeln!(
            d,
            "| {label} | {} | {} ({} nodes) | {} ({} people) | {} ({} cases) | {} ({} nodes) | {} ({} entities) |",
            s(r, "sources"),
            num(f(r, "person_precision"), 3),
            s(r, "people"),
            num(f(r, "person_recall"), 3),
            s(r, "gold_people"),
            num(f(r, "alias_merged"), 3),
            s(r, "alias_cases"),
            num(f(r, "entity_precision"), 3),
            s(r, "entities"),
            num(f(r, "entity_recall"), 3),
            s(r, "gold_entities"),
        );
    }
    d.push_str(
        "
Entities by type (precision of the nodes typed so; recall of the gold entities of the
type found with it):

| corpus | type | nodes | precision | gold | recall |
|---|---|---:|---:|---:|---:|
",
    );
    for (corpus, label) in CORPORA {
        for r in types.iter().filter(|r| s(r, "corpus") == corpus) {
            // A share of nothing is no figure.
            let share = |count: &str, key: &str| match s(r, count) {
                "0" => "–".to_owned(),
                _ => num(f(r, key), 3),
            };
            let _ = writeln!(
                d,
                "| {label} | {} | {} | {} | {} | {} |",
                s(r, "type"),
                s(r, "nodes"),
                share("nodes", "precision"),
                s(r, "gold"),
                share("gold", "recall"),
            );
        }
    }
    d.push_str(
        "
Targets: person precision ≥ 0.95 and recall ≥ 0.9, entity recall ≥ 0.7, aliases merged
≥ 0.9. The rules are general (closed-class cue words, no list of any corpus's names);
a separate public corpus is checked against them too.
",
    );
}
