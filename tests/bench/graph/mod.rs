//! `cosmo-bench graph`: the People and Entities the offline model puts in the graph,
//! against a gold list. Two corpora: generated conversations ([`corpus`]: several
//! speakers, people with aliases, places, organisations, works, pets and events, with
//! interjections before names and titles at the start of sentences), a hand-checked
//! sample of real-looking text ([`sample`]: an email, a Slack thread, a meeting) and a
//! second one written after the rules were tuned ([`heldout`]: a chat, a Slack thread). Each
//! Source goes the pipeline's way (render, clean a transcript, extract, the
//! confidence/subpoint filter) and is scored by [`score`]. Prints a `graph` line per
//! corpus and a `graph_type` line per corpus and entity type; [`section`] writes them
//! into BENCHMARKS.md.

use cosmo_pipeline::plan;
use cosmo_shared::cleanup;
use cosmo_shared::domain::SourceType;
use cosmo_shared::domain::raw::RawContent;
use cosmo_shared::llm::offline::OfflineModel;
use cosmo_shared::llm::{EntityExtractor, ExtractedEntity, ExtractionContext, SourceProcessor};

use crate::harness::Line;

pub mod corpus;
pub mod heldout;
mod lines;
pub mod sample;
pub mod score;
pub mod section;

/// One Source and what a reader finds in it.
#[derive(Debug, Clone)]
pub struct Doc {
    pub label: String,
    pub source_type: SourceType,
    pub raw: RawContent,
    /// The owner's profile name (the Source is ingested for them).
    pub owner: Option<String>,
    pub gold: Gold,
}

/// The people and things a reader would put in the graph.
#[derive(Debug, Clone, Default)]
pub struct Gold {
    pub people: Vec<GoldPerson>,
    pub entities: Vec<GoldEntity>,
    /// Names neither right nor wrong (mentioned in passing): not scored either way.
    pub ignore: Vec<String>,
}

#[derive(Debug, Clone)]
pub struct GoldPerson {
    /// The fullest name the text gives: the name the node should carry.
    pub name: String,
    /// Other names the text calls them by.
    pub aliases: Vec<String>,
}

#[derive(Debug, Clone)]
pub struct GoldEntity {
    pub name: String,
    pub entity_type: &'static str,
}

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Generated conversations.
    #[arg(long, default_value_t = 60)]
    pub conversations: usize,
    /// Print each Source's misses and false finds (to stderr).
    #[arg(long)]
    pub verbose: bool,
    /// Print the rendered text of the Sources whose label contains this (to stderr).
    #[arg(long)]
    pub show: Option<String>,
}

pub async fn run(args: Args) -> anyhow::Result<()> {
    let model = OfflineModel::new(64);
    for (name, docs) in [
        ("generated", corpus::generate(args.conversations)),
        ("sample", sample::docs()),
        ("heldout", heldout::docs()),
    ] {
        let mut tally = score::Tally::default();
        for doc in &docs {
            if args
                .show
                .as_ref()
                .is_some_and(|s| doc.label.ends_with(s.as_str()))
            {
                eprintln!("{}:\n{}\n", doc.label, cleanup::render(&doc.raw));
            }
            let all = extract(&model, doc).await?;
            let kept = plan::keep(all.clone());
            let found = score::score(doc, &kept);
            if args.verbose {
                found.explain(&doc.label, &all);
            }
            tally.add(found);
        }
        tally.print(name, docs.len());
    }
    Ok(())
}

/// What the offline model extracts from `doc` as the pipeline runs it: rendered,
/// cleaned when a transcript, with the speakers and owner as context (before the
/// filter, [`plan::keep`]).
pub async fn extract(model: &OfflineModel, doc: &Doc) -> anyhow::Result<Vec<ExtractedEntity>> {
    let rendered = cleanup::render(&doc.raw);
    let content = if doc.source_type.is_transcript() {
        model.clean_transcript(&rendered).await?.value
    } else {
        rendered
    };
    let context = ExtractionContext {
        source_type: Some(doc.source_type),
        owner_name: doc.owner.clone(),
        speakers: cleanup::speakers(&doc.raw),
    };
    Ok(model.extract(&content, &context).await?.value)
}

/// `part / whole`, 1 when there is nothing to find.
pub fn ratio(part: usize, whole: usize) -> f64 {
    if whole == 0 {
        1.0
    } else {
        part as f64 / whole as f64
    }
}

pub fn line(name: &str, corpus: &str) -> Line {
    Line::new(name).text("corpus", corpus)
}
