//! "Did you mean ...?": the closest candidate to a misspelt name.
//!
//! One helper for every layer (keywords, variables, functions, properties, tokens), so that
//! suggestions follow one rule: an exact case-insensitive match wins, then the smallest edit
//! distance within a third of the name's length (at least one edit), ties broken by the
//! candidate order given. Two neighbouring characters swapped count as one edit (`nmae` is one
//! edit from `name`), the most common slip of typing.

/// The edit distance between two strings, counted in characters: insertions, deletions,
/// substitutions and swaps of two neighbouring characters each cost one (the optimal string
/// alignment distance).
pub fn edit_distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().collect();
    Rows::default()
        .distance_within(&a, b, usize::MAX)
        .expect("every distance is within usize::MAX")
}

/// The largest distance accepted for a name of `len` characters.
pub fn threshold(len: usize) -> usize {
    (len / 3).max(1)
}

/// The best candidate for `name`, if any is close enough. `name` itself is never suggested.
pub fn best_match<'c>(
    name: &str,
    candidates: impl IntoIterator<Item = &'c str>,
) -> Option<&'c str> {
    best_match_with(name, candidates, |_, _| false)
}

/// [`best_match`] with ties between equally close candidates broken by the smallest text
/// rather than by order: for candidates in no particular order (a hash map's keys), the
/// answer `best_match` gives them sorted.
pub fn best_match_least<'c>(
    name: &str,
    candidates: impl IntoIterator<Item = &'c str>,
) -> Option<&'c str> {
    best_match_with(name, candidates, |candidate, best| candidate < best)
}

/// `wins_tie(candidate, best)`: whether an equally close candidate replaces the best so far.
fn best_match_with<'c>(
    name: &str,
    candidates: impl IntoIterator<Item = &'c str>,
    wins_tie: impl Fn(&str, &str) -> bool,
) -> Option<&'c str> {
    let mut matcher = Matcher::new(name, wins_tie);
    for candidate in candidates {
        matcher.consider(candidate);
    }
    matcher.best()
}

/// The search of [`best_match_least`] one candidate at a time, for callers that can skip
/// candidates: the distance is at least the difference of the lengths, so a caller holding
/// names by length gives only those near the name's ([`Matcher::consider_by_length`]).
pub struct Matcher<'n, 'c, F = fn(&str, &str) -> bool> {
    name: &'n str,
    name_chars: Vec<char>,
    limit: usize,
    best: Option<(usize, &'c str)>,
    // Buffers reused across candidates: a program's names can number 100,000.
    rows: Rows,
    wins_tie: F,
}

impl<'n, 'c> Matcher<'n, 'c> {
    /// Ties between equally close candidates broken by the smallest text, as
    /// [`best_match_least`].
    pub fn least(name: &'n str) -> Self {
        Matcher::new(name, |candidate: &str, best: &str| candidate < best)
    }
}

impl<'n, 'c, F: Fn(&str, &str) -> bool> Matcher<'n, 'c, F> {
    fn new(name: &'n str, wins_tie: F) -> Self {
        let name_chars: Vec<char> = name.chars().collect();
        Matcher {
            name,
            limit: threshold(name_chars.len()),
            name_chars,
            best: None,
            rows: Rows::default(),
            wins_tie,
        }
    }

    /// The name's length in characters.
    fn length(&self) -> usize {
        self.name_chars.len()
    }

    /// The largest distance a candidate can still win at.
    fn bound(&self) -> usize {
        self.best.map_or(self.limit, |(d, _)| d.min(self.limit))
    }

    pub fn consider(&mut self, candidate: &'c str) {
        if candidate == self.name {
            return;
        }
        let distance = if candidate.eq_ignore_ascii_case(self.name) {
            0
        } else {
            // Only a candidate as close as the best so far can matter (an equal one may win
            // the tie), so the distance is computed only up to that.
            match self
                .rows
                .distance_within(&self.name_chars, candidate, self.bound())
            {
                Some(d) => d,
                None => return,
            }
        };
        let better = self
            .best
            .is_none_or(|(d, b)| distance < d || (distance == d && (self.wins_tie)(candidate, b)));
        if distance <= self.limit && better {
            self.best = Some((distance, candidate));
        }
    }

    /// Considers candidates grouped by length in characters (`of_length(n)`: those of `n`),
    /// outwards from the name's length while a length can still be close enough.
    pub fn consider_by_length<I>(&mut self, mut of_length: impl FnMut(usize) -> I)
    where
        I: IntoIterator<Item = &'c str>,
    {
        let length = self.length();
        let mut apart = 0;
        while apart <= self.bound() {
            let shorter = length.checked_sub(apart);
            let longer = (apart > 0).then_some(length + apart);
            for at in shorter.into_iter().chain(longer) {
                for candidate in of_length(at) {
                    self.consider(candidate);
                }
            }
            apart += 1;
        }
    }

    pub fn best(&self) -> Option<&'c str> {
        self.best.map(|(_, candidate)| candidate)
    }
}

/// Whether the letters of `a` and `b` leave room for a distance within `max`: an edit
/// changes the count of at most two letters by one each (a swap, of none), so half the
/// letters the two do not share is a lower bound of the distance. Most candidates a name is
/// compared with share few letters with it, and are turned away without the table (`true`,
/// no bound, for text outside ASCII).
fn within_by_letters(a: &[char], b: &[char], max: usize) -> bool {
    if a.len() + b.len() <= max.saturating_mul(2) {
        return true;
    }
    let mut counts = [0u32; 128];
    for &c in a {
        match counts.get_mut(c as usize) {
            Some(count) => *count += 1,
            None => return true,
        }
    }
    let mut shared = 0;
    for &c in b {
        match counts.get_mut(c as usize) {
            Some(count) if *count > 0 => {
                *count -= 1;
                shared += 1;
            }
            Some(_) => {}
            None => return true,
        }
    }
    let unshared = a.len() + b.len() - 2 * shared;
    unshared.div_ceil(2) <= max
}

/// The rows of the edit-distance table, kept between calls.
#[derive(Default)]
struct Rows {
    candidate: Vec<char>,
    /// The row before `previous`, for swaps.
    before: Vec<usize>,
    previous: Vec<usize>,
    current: Vec<usize>,
}

impl Rows {
    /// The edit distance between `a` and `b` if it is at most `max`; `None` as soon as every
    /// entry of a row exceeds `max` (the distance can only grow from there).
    fn distance_within(&mut self, a: &[char], b: &str, max: usize) -> Option<usize> {
        self.candidate.clear();
        self.candidate.extend(b.chars());
        let b = &self.candidate[..];
        // Lengths that differ by more than `max` cannot be within it.
        if a.len().abs_diff(b.len()) > max {
            return None;
        }
        // A common prefix and suffix cost nothing, and the table of what is between them is
        // the distance (names of a program often share most of their text: `bucketLogs1` and
        // `bucketLogs2`, where the whole table was a hundred cells for one).
        let prefix = a.iter().zip(b).take_while(|(x, y)| x == y).count();
        let (a, b) = (&a[prefix..], &b[prefix..]);
        let suffix = a
            .iter()
            .rev()
            .zip(b.iter().rev())
            .take_while(|(x, y)| x == y)
            .count();
        let (a, b) = (&a[..a.len() - suffix], &b[..b.len() - suffix]);
        if !within_by_letters(a, b, max) {
            return None;
        }
        self.previous.clear();
        self.previous.extend(0..=b.len());
        self.current.clear();
        self.current.resize(b.len() + 1, 0);
        self.before.clear();
        self.before.resize(b.len() + 1, 0);
        for (i, ca) in a.iter().enumerate() {
            self.current[0] = i + 1;
            let mut row_min = self.current[0];
            for (j, cb) in b.iter().enumerate() {
                let substitution = self.previous[j] + usize::from(ca != cb);
                let mut value = substitution
                    .min(self.previous[j + 1] + 1)
                    .min(self.current[j] + 1);
                // `ab` against `ba`: a swap, from two rows and two columns back.
                if i > 0 && j > 0 && *ca == b[j - 1] && a[i - 1] == *cb {
                    value = value.min(self.before[j - 1] + 1);
                }
                self.current[j + 1] = value;
                row_min = row_min.min(value);
            }
            // Once every entry of a row exceeds `max`, every later entry does: it comes from
            // the row above at no less, or by a swap from two rows above plus one, which is no
            // less than the entry the same cell gave the row above by a substitution.
            if row_min > max {
                return None;
            }
            std::mem::swap(&mut self.before, &mut self.previous);
            std::mem::swap(&mut self.previous, &mut self.current);
        }
        let distance = self.previous[b.len()];
        (distance <= max).then_some(distance)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn distances() {
        assert_eq!(edit_distance("", ""), 0);
        assert_eq!(edit_distance("abc", ""), 3);
        assert_eq!(edit_distance("kitten", "sitting"), 3);
        assert_eq!(edit_distance("lenght", "length"), 1);
        assert_eq!(edit_distance("nmae", "name"), 1);
        assert_eq!(edit_distance("ab", "ba"), 1);
        assert_eq!(edit_distance("abc", "ca"), 3);
        assert_eq!(edit_distance("héllo", "hello"), 1);
    }

    /// The optimal string alignment distance from its whole table, for the tests.
    fn full_table(a: &str, b: &str) -> usize {
        let (a, b): (Vec<char>, Vec<char>) = (a.chars().collect(), b.chars().collect());
        let mut d = vec![vec![0; b.len() + 1]; a.len() + 1];
        for (i, row) in d.iter_mut().enumerate() {
            row[0] = i;
        }
        for (j, cell) in d[0].iter_mut().enumerate() {
            *cell = j;
        }
        for i in 1..=a.len() {
            for j in 1..=b.len() {
                let cost = usize::from(a[i - 1] != b[j - 1]);
                d[i][j] = (d[i - 1][j] + 1)
                    .min(d[i][j - 1] + 1)
                    .min(d[i - 1][j - 1] + cost);
                if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                    d[i][j] = d[i][j].min(d[i - 2][j - 2] + 1);
                }
            }
        }
        d[a.len()][b.len()]
    }

    /// The bounded distance is the distance whenever it is within the bound, and the
    /// distance is the whole table's.
    #[test]
    fn bounded_distances_agree() {
        let words = [
            "",
            "a",
            "ab",
            "kitten",
            "sitting",
            "lenght",
            "length",
            "héllo",
            "hello",
            "siteBucket",
            "siteBuckets",
            "bucketSite",
            "nmae",
            "name",
            "abab",
            "baba",
            "acb",
            "cab",
            "tset",
            "test",
        ];
        let mut rows = Rows::default();
        for a in words {
            let chars: Vec<char> = a.chars().collect();
            for b in words {
                let d = edit_distance(a, b);
                assert_eq!(d, full_table(a, b), "{a:?} {b:?}");
                for max in 0..8 {
                    let expected = (d <= max).then_some(d);
                    assert_eq!(
                        rows.distance_within(&chars, b, max),
                        expected,
                        "{a:?} {b:?} {max}"
                    );
                }
            }
        }
    }

    /// Every pair of strings of up to five letters over three, against the whole table: the
    /// common prefix and suffix the bounded distance leaves out change nothing, swaps at
    /// their edges included.
    #[test]
    fn bounded_distances_agree_on_every_short_pair() {
        let mut words: Vec<String> = vec![String::new()];
        let mut last: Vec<String> = vec![String::new()];
        for _ in 0..5 {
            last = last
                .iter()
                .flat_map(|w| ['a', 'b', 'c'].map(|c| format!("{w}{c}")))
                .collect();
            words.extend(last.iter().cloned());
        }
        let mut rows = Rows::default();
        for a in &words {
            let chars: Vec<char> = a.chars().collect();
            for b in &words {
                let d = full_table(a, b);
                for max in [0, 1, 2, 5] {
                    assert_eq!(
                        rows.distance_within(&chars, b, max),
                        (d <= max).then_some(d),
                        "{a:?} {b:?} {max}"
                    );
                }
            }
        }
    }

    /// A caller that looks only at lengths within the matcher's bound, outwards from the
    /// name's, finds what a look at every candidate finds.
    #[test]
    fn a_search_by_length_finds_the_best_of_all() {
        let words = [
            "a",
            "ab",
            "abc",
            "kitten",
            "sitting",
            "mitten",
            "lenght",
            "length",
            "héllo",
            "hello",
            "HELLO",
            "siteBucket",
            "siteBuckets",
            "bucketSite",
            "site",
            "bucket",
            "identityPet1",
            "identityPet18",
            "identityPet180",
            "identityPet",
            "tenantConfig19",
        ];
        let mut by_length: Vec<Vec<&str>> = Vec::new();
        for w in words {
            let n = w.chars().count();
            if by_length.len() <= n {
                by_length.resize_with(n + 1, Vec::new);
            }
            by_length[n].push(w);
        }
        for name in words
            .iter()
            .copied()
            .chain(["identityPet17", "lentgh", "x", "Kitten"])
        {
            let mut matcher = Matcher::least(name);
            let mut looked = 0;
            matcher.consider_by_length(|at| {
                let words = by_length.get(at).map_or(&[][..], Vec::as_slice);
                looked += words.len();
                words.iter().copied()
            });
            assert_eq!(matcher.best(), best_match_least(name, words), "{name:?}");
            assert!(looked < words.len(), "{name:?} looked at every word");
        }
    }

    #[test]
    fn suggestions() {
        let names = ["length", "lookup", "element", "entries"];
        assert_eq!(best_match("lenght", names), Some("length"));
        assert_eq!(best_match("LOOKUP", names), Some("lookup"));
        assert_eq!(best_match("elemnt", names), Some("element"));
        assert_eq!(best_match("xyz", names), None);
        assert_eq!(best_match("length", names), None);
        // Short names accept one edit only.
        assert_eq!(best_match("ab", ["ac", "xy"]), Some("ac"));
        assert_eq!(best_match("ab", ["xy"]), None);
    }
}
