//! Finding a part of the scene, or a shape among its siblings, again, step
//! after step: by its key, starting at the index it had (a key still there
//! costs one comparison; one that moved is searched for).

#[cfg(test)]
use views::Shape;
use views::{Figure, List, Part, Scene, Table};

/// A part's place: the index it had, and its key.
pub type PartAt = (usize, String);

/// Marks the second and later shapes that share a key among their siblings
/// (`key`, then this, then which one): keys should be unique, but a scene
/// that breaks that must still draw each of its shapes, once.
pub const AGAIN: char = '\u{1e}';

/// Each of `keys` made unique: a key said before gets which time it is
/// ([`AGAIN`], then the count). Counted in a sorted list rather than a hash
/// map: the main module then carries no hash map code (4.6 KiB gzip).
pub fn numbered<'a>(keys: impl Iterator<Item = &'a str>) -> Vec<String> {
    let mut seen: Vec<(&str, usize)> = Vec::new();
    keys.map(|key| match seen.binary_search_by(|(k, _)| (*k).cmp(key)) {
        Ok(at) => {
            seen[at].1 += 1;
            format!("{key}{AGAIN}{}", seen[at].1)
        }
        Err(at) => {
            seen.insert(at, (key, 0));
            key.to_string()
        }
    })
    .collect()
}

/// The key and which of the siblings with that key (0: the first).
fn occurrence(key: &str) -> (&str, usize) {
    match key.split_once(AGAIN) {
        Some((base, n)) => (base, n.parse().unwrap_or(0)),
        None => (key, 0),
    }
}

/// The item at `at` (its index and key) among `items`, whose keys `key_of`
/// gives: a shape among its siblings, a table's row, a list's item.
pub fn by_key<'a, T>(
    items: &'a [T],
    (index, key): &(usize, String),
    key_of: impl Fn(&T) -> &str,
) -> Option<&'a T> {
    let (key, nth) = occurrence(key);
    match items.get(*index) {
        Some(item) if nth == 0 && key_of(item) == key => Some(item),
        _ => items.iter().filter(|item| key_of(item) == key).nth(nth),
    }
}

/// The row keys of `items` for a keyed list: each item's index and key.
pub fn keys<T>(items: &[T], key_of: impl Fn(&T) -> &str) -> Vec<(usize, String)> {
    items
        .iter()
        .map(|item| key_of(item).to_string())
        .enumerate()
        .collect()
}

/// The part at `at` of the kind `pick` takes out, by `key`.
fn part<'a, T: 'static>(
    scene: &'a Scene,
    at: &PartAt,
    pick: for<'p> fn(&'p Part) -> Option<&'p T>,
    key: for<'t> fn(&'t T) -> &'t str,
) -> Option<&'a T> {
    by_key(&scene.parts, at, |p| pick(p).map_or("", key)).and_then(pick)
}

pub fn figure<'a>(scene: &'a Scene, at: &PartAt) -> Option<&'a Figure> {
    fn pick(p: &Part) -> Option<&Figure> {
        match p {
            Part::Figure(f) => Some(f),
            _ => None,
        }
    }
    part(scene, at, pick, |f| &f.key)
}

pub fn table<'a>(scene: &'a Scene, at: &PartAt) -> Option<&'a Table> {
    fn pick(p: &Part) -> Option<&Table> {
        match p {
            Part::Table(t) => Some(t),
            _ => None,
        }
    }
    part(scene, at, pick, |t| &t.key)
}

pub fn list<'a>(scene: &'a Scene, at: &PartAt) -> Option<&'a List> {
    fn pick(p: &Part) -> Option<&List> {
        match p {
            Part::List(l) => Some(l),
            _ => None,
        }
    }
    part(scene, at, pick, |l| &l.key)
}

/// A shape's place among its siblings: the index it had, and its key (with
/// which of the siblings sharing that key it is, see [`AGAIN`]).
pub type SiblingAt = (usize, String);

/// The shape's own key (its test hook).
pub fn own_key(at: &SiblingAt) -> &str {
    occurrence(&at.1).0
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sibling<'a>(siblings: &'a [Shape], at: &SiblingAt) -> Option<&'a Shape> {
        by_key(siblings, at, |s| &s.key)
    }

    #[test]
    fn a_shape_is_found_by_its_key_where_it_was_or_where_it_went() {
        let mut fig = Figure::new("f", "F", 10.0, 10.0);
        fig.push(Shape::group(
            "g",
            vec![Shape::rect("a", 0.0, 0.0, 1.0, 1.0)],
        ));
        let scene = Scene::new("t", "s").figure(fig);
        let f = figure(&scene, &(0, "f".into())).unwrap();
        let g = sibling(&f.shapes, &(0, "g".into())).unwrap();
        assert_eq!(
            sibling(g.children(), &(0, "a".into())).map(|s| &s.key[..]),
            Some("a")
        );
        // A stale index hint still finds the key; a missing key is None.
        assert!(sibling(g.children(), &(7, "a".into())).is_some());
        assert!(sibling(g.children(), &(0, "b".into())).is_none());
        assert!(figure(&scene, &(3, "f".into())).is_some());
        assert!(table(&scene, &(0, "f".into())).is_none());
    }

    #[test]
    fn a_key_said_again_is_numbered() {
        let keys = numbered(["a", "b", "a", "a"].into_iter());
        assert_eq!(keys[0], "a");
        assert_eq!(keys[1], "b");
        assert_eq!(keys[2], format!("a{AGAIN}1"));
        assert_eq!(keys[3], format!("a{AGAIN}2"));
        assert_eq!(occurrence(&keys[3]), ("a", 2));
    }

    #[test]
    fn siblings_that_share_a_key_are_told_apart_by_their_order() {
        let mut fig = Figure::new("f", "F", 10.0, 10.0);
        fig.push(Shape::rect("a", 0.0, 0.0, 1.0, 1.0));
        fig.push(Shape::rect("a", 5.0, 0.0, 1.0, 1.0));
        let second = (1, format!("a{AGAIN}1"));
        assert_eq!(own_key(&second), "a");
        let found = sibling(&fig.shapes, &second).map(|s| s.kind.clone());
        assert_eq!(
            found,
            Some(views::Kind::Rect {
                x: 5.0,
                y: 0.0,
                w: 1.0,
                h: 1.0,
                r: 4.0
            })
        );
    }
}
