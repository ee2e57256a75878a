//! Invariants, status figures and "why it matters" for the locality demo.

use super::{Locality, Walk, ELEMENT_BYTES};
use crate::model::Figure;
use crate::text::{share_tenths, tenths};

pub fn check(m: &Locality) -> Result<(), String> {
    m.sim.check()?;
    let n = m.config.elements;
    if m.outcome.len() != n || m.position > n {
        return Err("the walk's progress does not fit the array".into());
    }
    let reached = m.outcome.iter().filter(|o| o.is_some()).count();
    let hits = m.outcome.iter().filter(|o| **o == Some(true)).count() as u64;
    let s = &m.sim.levels[0].stats;
    if reached != m.position || s.accesses() != m.position as u64 || s.hits != hits {
        return Err("the coloured elements disagree with the cache's counts".into());
    }
    // Each line misses at least once the first time the walk reaches it.
    if s.misses < m.sim.levels[0].distinct_lines() as u64 {
        return Err("fewer misses than distinct lines touched".into());
    }
    for t in m.results.iter().flatten() {
        if t.hits + t.misses != n as u64 {
            return Err(format!(
                "the {} walk's totals miss some elements",
                t.walk.label()
            ));
        }
    }
    if m.stride_curve
        .iter()
        .any(|p| p.accesses != n as u64 || p.misses > p.accesses)
    {
        return Err("a chart point does not cover the array".into());
    }
    Ok(())
}

pub fn status(m: &Locality) -> Vec<Figure> {
    let s = &m.sim.levels[0].stats;
    vec![
        Figure::new("walk", "walk", m.walk.label()),
        Figure::new(
            "position",
            "accessed",
            format!("{}/{}", m.position, m.config.elements),
        ),
        Figure::new("hits", "hits", s.hits),
        Figure::new("misses", "misses", s.misses),
        Figure::new(
            "miss-rate",
            "miss rate",
            tenths(share_tenths(s.misses as i64, s.accesses() as i64)),
        ),
        Figure::new("cycles", "cycles", m.sim.cycles),
    ]
}

pub fn why(m: &Locality) -> Vec<String> {
    let c = &m.config;
    let per_line = c.line / ELEMENT_BYTES;
    let lines = c.elements as u64 / per_line;
    let cache_bytes = m.sim.levels[0].spec.bytes();
    let array_bytes = c.elements as u64 * ELEMENT_BYTES;
    let mut out = vec![format!(
        "A line holds {per_line} elements, so the array is {lines} lines: no walk can miss fewer than {lines} times, and a walk that uses each line fully before moving on misses exactly that often."
    )];
    out.push(if cache_bytes >= array_bytes {
        format!(
            "The {cache_bytes}-byte cache holds the whole {array_bytes}-byte array: once a line is in, it stays, so every order misses about the same."
        )
    } else {
        format!(
            "The {cache_bytes}-byte cache is smaller than the {array_bytes}-byte array: a walk that leaves a line and comes back later finds it evicted and pays again."
        )
    });
    let done: Vec<_> = m.results.iter().flatten().collect();
    if let (Some(best), Some(worst)) = (
        done.iter().min_by_key(|t| t.cycles),
        done.iter().max_by_key(|t| t.cycles),
    ) {
        if done.len() > 1 && worst.cycles > best.cycles {
            out.push(format!(
                "Same elements, same cache: the {} walk took {} cycles and the {} walk {}, {}× as long.",
                best.walk.label(),
                best.cycles,
                worst.walk.label(),
                worst.cycles,
                worst.cycles / best.cycles.max(1)
            ));
        }
    }
    let row = m.results[Walk::RowMajor.index()];
    let col = m.results[Walk::ColumnMajor.index()];
    if let (Some(r), Some(k)) = (row, col) {
        out.push(format!(
            "Row-major is address order ({} misses); column-major jumps {} bytes per step ({} misses): in C, loop over the last index innermost.",
            r.misses,
            c.cols as u64 * ELEMENT_BYTES,
            k.misses
        ));
    }
    out
}
