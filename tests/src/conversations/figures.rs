//! The context benchmark's averages: evidence in context, answer in context and tokens
//! used over a set of questions, overall and by category; and explore's recall@10 of
//! evidence sessions, with and without the Sources reached through insights.

use std::collections::BTreeMap;

use super::Category;

/// Averages over a set of questions.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Figures {
    pub questions: usize,
    /// The share of a question's evidence turns present in the context.
    pub evidence: f64,
    /// The share of its expected answer's content words present.
    pub answer: f64,
    /// Estimated tokens of the context.
    pub tokens: f64,
}

/// One system's figures at one budget, overall and by category.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Measured {
    pub all: Figures,
    pub by_category: BTreeMap<Category, Figures>,
}

impl Measured {
    /// Each question's category, evidence share, answer share and tokens.
    pub fn of(answers: impl IntoIterator<Item = (Category, f64, f64, u64)>) -> Self {
        let mut all = Figures::default();
        let mut by_category: BTreeMap<Category, Figures> = BTreeMap::new();
        for (category, evidence, answer, tokens) in answers {
            for f in [&mut all, by_category.entry(category).or_default()] {
                f.questions += 1;
                f.evidence += evidence;
                f.answer += answer;
                f.tokens += tokens as f64;
            }
        }
        let averaged = |mut f: Figures| {
            let n = f.questions.max(1) as f64;
            f.evidence /= n;
            f.answer /= n;
            f.tokens /= n;
            f
        };
        Self {
            all: averaged(all),
            by_category: by_category
                .into_iter()
                .map(|(c, f)| (c, averaged(f)))
                .collect(),
        }
    }

    /// Every category, those without questions as zero questions.
    pub fn categories(&self) -> Vec<(Category, Figures)> {
        Category::ALL
            .iter()
            .map(|c| (*c, self.by_category.get(c).copied().unwrap_or_default()))
            .collect()
    }
}

/// Explore's recall@10 of evidence sessions, averaged over questions.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Recall {
    pub questions: usize,
    /// Found as a returned Source.
    pub sources: f64,
    /// Found as a returned Source or through a returned insight derived from it.
    pub with_insights: f64,
}

impl Recall {
    /// Each question's evidence, the sessions returned as Sources and those reached
    /// through insights.
    pub fn of<'a>(
        answers: impl IntoIterator<Item = (&'a [usize], &'a [usize], &'a [usize])>,
    ) -> Self {
        let mut r = Self::default();
        for (evidence, sources, insights) in answers {
            let share = |found: &dyn Fn(usize) -> bool| {
                let n = evidence.iter().filter(|e| found(**e)).count();
                n as f64 / evidence.len().max(1) as f64
            };
            r.questions += 1;
            r.sources += share(&|e| sources.contains(&e));
            r.with_insights += share(&|e| sources.contains(&e) || insights.contains(&e));
        }
        let n = r.questions.max(1) as f64;
        r.sources /= n;
        r.with_insights /= n;
        r
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn averages_overall_and_by_category() {
        let m = Measured::of([
            (Category::Temporal, 1.0, 0.5, 100),
            (Category::Temporal, 0.0, 0.5, 300),
            (Category::Open, 0.5, 1.0, 800),
        ]);
        assert_eq!(m.all.questions, 3);
        assert_eq!(m.all.evidence, 0.5);
        assert_eq!(m.all.tokens, 400.0);
        let temporal = m.by_category[&Category::Temporal];
        assert_eq!(
            (temporal.evidence, temporal.answer, temporal.tokens),
            (0.5, 0.5, 200.0)
        );
        assert_eq!(m.categories().len(), Category::ALL.len());
    }

    #[test]
    fn an_insight_finds_the_sessions_it_was_derived_from() {
        let r = Recall::of([
            (&[1, 2][..], &[1][..], &[2][..]),
            (&[3][..], &[][..], &[][..]),
        ]);
        assert_eq!(r.sources, 0.25);
        assert_eq!(r.with_insights, 0.5);
    }
}
