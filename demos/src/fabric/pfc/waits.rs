//! Deadlock: a cycle in the "waits for" graph of paused links. Link u→v
//! waits for link v→w when u→v is paused and the bytes that came in on
//! u→v at v are queued for v→w, which is paused too. If such waits close a
//! cycle, no buffer on it can drain: each waits for the next to send first.
//! Hu et al., "Deadlocks in Datacenter Networks: Why Do They Form, and How
//! to Avoid Them" (HotNets 2016), study when such a cyclic buffer
//! dependency deadlocks; Guo et al. report PFC deadlock in production.

use super::fabric::Fabric;

/// The ports on a cycle of waits, in order, or none.
pub fn cycle(f: &Fabric, tick: u32) -> Vec<usize> {
    let n = f.ports.len();
    // waits[i] = the ports link i's held bytes wait for.
    let mut waits: Vec<Vec<usize>> = vec![Vec::new(); n];
    for (out, p) in f.ports.iter().enumerate() {
        if !p.paused(tick) || !p.link.from.is_switch() {
            continue;
        }
        for ch in &p.queue {
            let i = usize::from(ch.ingress);
            if f.ports[i].paused(tick)
                && f.ports[i].link.from.is_switch()
                && !waits[i].contains(&out)
            {
                waits[i].push(out);
            }
        }
    }
    // Depth-first search for a cycle; the graph has at most eight nodes
    // with edges (the links between switches).
    let mut state = vec![0u8; n];
    let mut stack = Vec::new();
    for start in 0..n {
        if state[start] == 0 {
            if let Some(c) = visit(start, &waits, &mut state, &mut stack) {
                return c;
            }
        }
    }
    Vec::new()
}

fn visit(
    at: usize,
    waits: &[Vec<usize>],
    state: &mut [u8],
    stack: &mut Vec<usize>,
) -> Option<Vec<usize>> {
    state[at] = 1;
    stack.push(at);
    for &next in &waits[at] {
        if state[next] == 1 {
            let from = stack.iter().position(|s| *s == next).unwrap_or(0);
            return Some(stack[from..].to_vec());
        }
        if state[next] == 0 {
            if let Some(c) = visit(next, waits, state, stack) {
                return Some(c);
            }
        }
    }
    stack.pop();
    state[at] = 2;
    None
}
