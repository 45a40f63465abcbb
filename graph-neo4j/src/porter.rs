//! The Porter stemmer (M. F. Porter, "An algorithm for suffix stripping", 1980, as in
//! his reference C implementation, which Lucene's `PorterStemFilter` — the `english`
//! analyzer of the full-text indexes — follows). Note search on Neo4j uses it to tell
//! which notes of a matched node or relationship hold the query's words, since the index
//! scores the owner, not each note.

/// The stem of a lower-case word; words of two characters or fewer are returned as
/// they are. As in Lucene, every character but a vowel (and `y` by the rule) counts as
/// a consonant, so words with digits or accented letters are stemmed too ("cafés" →
/// "café", "1990s" → "1990").
pub(super) fn stem(word: &str) -> String {
    let chars: Vec<char> = word.chars().collect();
    if chars.len() <= 2 {
        return word.to_owned();
    }
    let mut s = Stemmer {
        k: chars.len() - 1,
        b: chars,
        j: 0,
    };
    s.step1ab();
    if s.k > 0 {
        s.step1c();
        s.step2();
        s.step3();
        s.step4();
        s.step5();
    }
    s.b.truncate(s.k + 1);
    s.b.into_iter().collect()
}

/// `b[0..=k]` is the word being stemmed; `j` marks the end of the stem before a suffix
/// [`Stemmer::ends`] found.
struct Stemmer {
    b: Vec<char>,
    k: usize,
    j: usize,
}

impl Stemmer {
    /// Is `b[i]` a consonant? `y` is one at the start or after a vowel.
    fn cons(&self, i: usize) -> bool {
        match self.b[i] {
            'a' | 'e' | 'i' | 'o' | 'u' => false,
            'y' => i == 0 || !self.cons(i - 1),
            _ => true,
        }
    }

    /// The measure m of `b[0..=j]`: the number of vowel–consonant sequences, as in
    /// `[C](VC)^m[V]`.
    fn m(&self) -> usize {
        let j = self.j;
        let mut n = 0;
        let mut i = 0;
        loop {
            if i > j {
                return n;
            }
            if !self.cons(i) {
                break;
            }
            i += 1;
        }
        i += 1;
        loop {
            loop {
                if i > j {
                    return n;
                }
                if self.cons(i) {
                    break;
                }
                i += 1;
            }
            i += 1;
            n += 1;
            loop {
                if i > j {
                    return n;
                }
                if !self.cons(i) {
                    break;
                }
                i += 1;
            }
            i += 1;
        }
    }

    /// Does `b[0..=j]` hold a vowel?
    fn vowel_in_stem(&self) -> bool {
        (0..=self.j).any(|i| !self.cons(i))
    }

    /// Do `b[i-1]` and `b[i]` make a double consonant?
    fn double_c(&self, i: usize) -> bool {
        i >= 1 && self.b[i] == self.b[i - 1] && self.cons(i)
    }

    /// Is `b[i-2..=i]` consonant–vowel–consonant, the last not `w`, `x` or `y`? (The
    /// condition for restoring an `e`: cav(e), lov(e), hop(e).)
    fn cvc(&self, i: usize) -> bool {
        if i < 2 || !self.cons(i) || self.cons(i - 1) || !self.cons(i - 2) {
            return false;
        }
        !matches!(self.b[i], 'w' | 'x' | 'y')
    }

    /// Does `b[0..=k]` end with `s` (leaving a non-empty stem)? Sets `j` before it.
    fn ends(&mut self, s: &str) -> bool {
        let s: Vec<char> = s.chars().collect();
        if s.len() > self.k {
            return false;
        }
        let start = self.k + 1 - s.len();
        if self.b[start..=self.k] != s {
            return false;
        }
        self.j = start - 1;
        true
    }

    /// Replaces `b[j+1..=k]` with `s`.
    fn set_to(&mut self, s: &str) {
        self.b.truncate(self.j + 1);
        self.b.extend(s.chars());
        self.k = self.j + s.len();
    }

    fn r(&mut self, s: &str) {
        if self.m() > 0 {
            self.set_to(s);
        }
    }

    /// Plurals and `-ed`, `-ing`.
    fn step1ab(&mut self) {
        if self.b[self.k] == 's' {
            if self.ends("sses") {
                self.k -= 2;
            } else if self.ends("ies") {
                self.set_to("i");
            } else if self.b[self.k - 1] != 's' {
                self.k -= 1;
            }
        }
        if self.ends("eed") {
            if self.m() > 0 {
                self.k -= 1;
            }
        } else if (self.ends("ed") || self.ends("ing")) && self.vowel_in_stem() {
            self.k = self.j;
            if self.ends("at") {
                self.set_to("ate");
            } else if self.ends("bl") {
                self.set_to("ble");
            } else if self.ends("iz") {
                self.set_to("ize");
            } else if self.double_c(self.k) {
                if !matches!(self.b[self.k], 'l' | 's' | 'z') {
                    self.k -= 1;
                }
            } else {
                self.j = self.k;
                if self.m() == 1 && self.cvc(self.k) {
                    self.set_to("e");
                }
            }
        }
    }

    /// A final `y` after a vowel in the stem becomes `i`.
    fn step1c(&mut self) {
        if self.ends("y") && self.vowel_in_stem() {
            self.b[self.k] = 'i';
        }
    }

    fn first_of(&mut self, rules: &[(&str, &str)]) {
        for (suffix, with) in rules {
            if self.ends(suffix) {
                self.r(with);
                return;
            }
        }
    }

    /// Double suffixes to single ones (m > 0).
    fn step2(&mut self) {
        let rules: &[(&str, &str)] = match self.b[self.k - 1] {
            'a' => &[("ational", "ate"), ("tional", "tion")],
            'c' => &[("enci", "ence"), ("anci", "ance")],
            'e' => &[("izer", "ize")],
            'l' => &[
                ("bli", "ble"),
                ("alli", "al"),
                ("entli", "ent"),
                ("eli", "e"),
                ("ousli", "ous"),
            ],
            'o' => &[("ization", "ize"), ("ation", "ate"), ("ator", "ate")],
            's' => &[
                ("alism", "al"),
                ("iveness", "ive"),
                ("fulness", "ful"),
                ("ousness", "ous"),
            ],
            't' => &[("aliti", "al"), ("iviti", "ive"), ("biliti", "ble")],
            'g' => &[("logi", "log")],
            _ => &[],
        };
        self.first_of(rules);
    }

    /// `-ic-`, `-full`, `-ness` and the like (m > 0).
    fn step3(&mut self) {
        let rules: &[(&str, &str)] = match self.b[self.k] {
            'e' => &[("icate", "ic"), ("ative", ""), ("alize", "al")],
            'i' => &[("iciti", "ic")],
            'l' => &[("ical", "ic"), ("ful", "")],
            's' => &[("ness", "")],
            _ => &[],
        };
        self.first_of(rules);
    }

    /// `-ant`, `-ence` and the like, in context m > 1. The first suffix that ends the
    /// word decides; a shorter one is not tried after it.
    fn step4(&mut self) {
        let suffixes: &[&str] = match self.b[self.k - 1] {
            'a' => &["al"],
            'c' => &["ance", "ence"],
            'e' => &["er"],
            'i' => &["ic"],
            'l' => &["able", "ible"],
            'n' => &["ant", "ement", "ment", "ent"],
            'o' => {
                if self.ends("ion") && matches!(self.b[self.j], 's' | 't') {
                    if self.m() > 1 {
                        self.k = self.j;
                    }
                    return;
                }
                &["ou"]
            }
            's' => &["ism"],
            't' => &["ate", "iti"],
            'u' => &["ous"],
            'v' => &["ive"],
            'z' => &["ize"],
            _ => &[],
        };
        if !suffixes.iter().any(|s| self.ends(s)) {
            return;
        }
        if self.m() > 1 {
            self.k = self.j;
        }
    }

    /// A final `e` (m > 1, or m = 1 not after cvc), and `ll` to `l` (m > 1).
    fn step5(&mut self) {
        self.j = self.k;
        if self.b[self.k] == 'e' {
            let a = self.m();
            if a > 1 || (a == 1 && !self.cvc(self.k - 1)) {
                self.k -= 1;
            }
        }
        if self.b[self.k] == 'l' && self.double_c(self.k) && self.m() > 1 {
            self.k -= 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::stem;

    #[test]
    fn the_published_examples() {
        for (word, want) in [
            ("caresses", "caress"),
            ("ponies", "poni"),
            ("ties", "ti"),
            ("caress", "caress"),
            ("cats", "cat"),
            ("feed", "feed"),
            ("agreed", "agre"),
            ("plastered", "plaster"),
            ("bled", "bled"),
            ("motoring", "motor"),
            ("sing", "sing"),
            ("conflated", "conflat"),
            ("troubled", "troubl"),
            ("sized", "size"),
            ("hopping", "hop"),
            ("tanned", "tan"),
            ("falling", "fall"),
            ("hissing", "hiss"),
            ("fizzed", "fizz"),
            ("failing", "fail"),
            ("filing", "file"),
            ("happy", "happi"),
            ("sky", "sky"),
            ("relational", "relat"),
            ("conditional", "condit"),
            ("rational", "ration"),
            ("valency", "valenc"),
            ("digitizer", "digit"),
            ("differently", "differ"),
            ("vietnamization", "vietnam"),
            ("predication", "predic"),
            ("operator", "oper"),
            ("feudalism", "feudal"),
            ("decisiveness", "decis"),
            ("hopefulness", "hope"),
            ("callousness", "callous"),
            ("formality", "formal"),
            ("sensitivity", "sensit"),
            ("sensibility", "sensibl"),
            ("triplicate", "triplic"),
            ("formative", "form"),
            ("formalize", "formal"),
            ("electricity", "electr"),
            ("electrical", "electr"),
            ("hopeful", "hope"),
            ("goodness", "good"),
            ("revival", "reviv"),
            ("allowance", "allow"),
            ("inference", "infer"),
            ("airliner", "airlin"),
            ("gyroscopic", "gyroscop"),
            ("adjustable", "adjust"),
            ("defensible", "defens"),
            ("irritant", "irrit"),
            ("replacement", "replac"),
            ("adjustment", "adjust"),
            ("dependent", "depend"),
            ("adoption", "adopt"),
            ("homologous", "homolog"),
            ("communism", "commun"),
            ("activate", "activ"),
            ("angularity", "angular"),
            ("effective", "effect"),
            ("bowdlerize", "bowdler"),
            ("probate", "probat"),
            ("rate", "rate"),
            ("cease", "ceas"),
            ("controlling", "control"),
            ("roll", "roll"),
            ("generalizations", "gener"),
            ("oscillators", "oscil"),
        ] {
            assert_eq!(stem(word), want, "{word}");
        }
    }

    #[test]
    fn inflections_meet_at_one_stem() {
        for (a, b) in [
            ("wants", "want"),
            ("hiring", "hire"),
            ("planning", "plan"),
            ("march", "march"),
            ("zeppelins", "zeppelin"),
        ] {
            assert_eq!(stem(a), stem(b), "{a} / {b}");
        }
    }

    #[test]
    fn short_words_are_kept_and_any_letters_stemmed_as_lucene_does() {
        assert_eq!(stem("is"), "is");
        assert_eq!(stem("as"), "as");
        assert_eq!(stem("ion"), "ion");
        assert_eq!(stem("café"), "café");
        assert_eq!(stem("cafés"), "café");
        assert_eq!(stem("2026"), "2026");
        assert_eq!(stem("1990s"), "1990");
        assert_eq!(stem("señoritas"), "señorita");
    }
}
