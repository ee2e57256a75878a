//! What the page prints about the run, and the model's invariants.

use super::*;
use crate::text::{fixed, grouped, ratio, share_tenths, tenths};

/// Focus keys: `page-<p>`, `socket-<s>`, `link-<i>`.
pub(super) fn narrate(m: &Numa, a: &Access) -> Event {
    let place = if a.first_touch {
        format!(
            "page {} is touched for the first time and the {} policy places it on node {}; ",
            a.page,
            m.config.policy.label(),
            a.node
        )
    } else {
        String::new()
    };
    let text = format!(
        "Access {}: {place}thread on socket {}, page {} on node {}: {} ns over a {} GB/s path.",
        a.number,
        a.from,
        a.page,
        a.node,
        match a.hops {
            0 => format!("local, {}", a.latency_ns),
            h => format!(
                "remote, {h} hop{}, {}",
                plural(usize::from(h)),
                a.latency_ns
            ),
        },
        a.gbs
    );
    let mut event = if a.hops == 0 {
        Event::done(text)
    } else {
        Event::warn(text)
    };
    event = event
        .at(format!("page-{}", a.page))
        .at(format!("socket-{}", a.node));
    for link in route(m.config.sockets, a.from, a.node) {
        event = event.at(format!("link-{link}"));
    }
    event
}

impl Numa {
    /// Average latency of the run so far, tenths of a ns.
    pub fn avg_latency_tenths(&self) -> i64 {
        ratio(self.latency_sum_ns, self.done as u64, 1)
    }

    /// Achieved bandwidth of the run so far, tenths of a GB/s.
    pub fn bandwidth_tenths(&self) -> i64 {
        ratio(self.done as u64 * LINE_BYTES * 1000, self.elapsed_ps, 1)
    }

    /// A link's load over the run: bytes it carried / what it could carry
    /// in the elapsed time, in tenths of a percent.
    pub fn link_load_tenths(&self, link: usize) -> i64 {
        ratio(
            self.link_bytes[link] * 1000,
            self.elapsed_ps * u64::from(self.config.link_gbs),
            3,
        )
    }

    /// Whether a one-hop access is limited by latency / misses in flight
    /// rather than by the link's bandwidth.
    pub fn remote_latency_bound(&self) -> bool {
        let c = &self.config;
        let latency_ps =
            u64::from(c.local_ns + c.hop_ns) * 1000 / u64::from(self.lines_in_flight());
        latency_ps > LINE_BYTES * 1000 / u64::from(c.link_gbs.min(c.local_gbs))
    }

    pub fn busiest_link(&self) -> usize {
        (0..self.link_bytes.len())
            .max_by_key(|&l| (self.link_bytes[l], usize::MAX - l))
            .unwrap_or(0)
    }
}

pub(super) fn avg_text(m: &Numa) -> String {
    format!("{} ns", fixed(m.avg_latency_tenths(), 1))
}

/// Lines in flight, and what capped them when the fill buffers did.
fn in_flight_text(m: &Numa) -> String {
    if m.fill_buffer_bound() {
        format!(
            "{} of {} (fill buffers)",
            m.lines_in_flight(),
            m.config.in_flight
        )
    } else {
        m.lines_in_flight().to_string()
    }
}

pub(super) fn figures(m: &Numa) -> Vec<Figure> {
    let busiest = m.busiest_link();
    vec![
        Figure::new(
            "accesses",
            "accesses",
            format!("{}/{}", m.done, m.config.accesses),
        ),
        Figure::new("thread", "thread on", format!("socket {}", m.thread)),
        Figure::new("policy", "policy", m.config.policy.label()),
        Figure::new("local", "local", m.local),
        Figure::new("remote", "remote", m.remote),
        Figure::new("avg-latency", "average latency", avg_text(m)),
        Figure::new(
            "bandwidth",
            "bandwidth",
            format!("{} GB/s", fixed(m.bandwidth_tenths(), 1)),
        ),
        Figure::new("in-flight", "lines in flight", in_flight_text(m)),
        Figure::new(
            "link-load",
            "interconnect load",
            tenths(m.link_load_tenths(busiest)),
        ),
    ]
}

pub(super) fn why(m: &Numa) -> Vec<String> {
    let c = &m.config;
    let mut out = vec![format!(
        "Local memory answers in {} ns; every interconnect hop adds {} ns, so the far side of this machine costs {} ns ({} % more).",
        c.local_ns,
        c.hop_ns,
        m.worst_latency_ns(),
        (m.worst_latency_ns() - c.local_ns) * 100 / c.local_ns
    )];
    if m.done > 0 {
        out.push(format!(
            "This run: {} local and {} remote access{}, {} remote; average {} against {} ns if all were local.",
            m.local,
            m.remote,
            if m.remote == 1 { "" } else { "es" },
            tenths(share_tenths(i64::from(m.remote), m.done as i64)),
            avg_text(m),
            c.local_ns
        ));
        let busiest = m.busiest_link();
        let (a, b) = link_ends(c.sockets, busiest);
        out.push(format!(
            "The busiest link, socket {a}–{b}, carried {} bytes: {} of its {} GB/s. With {} line{} in flight the thread is bound by {}.",
            grouped(m.link_bytes[busiest] as i64),
            tenths(m.link_load_tenths(busiest)),
            c.link_gbs,
            m.lines_in_flight(),
            plural(m.lines_in_flight() as usize),
            if m.remote_latency_bound() {
                "latency, not bandwidth"
            } else {
                "the link's bandwidth on remote accesses"
            }
        ));
    }
    out.push(ceiling_why(m));
    out.push(if m.moved_after_touch || (m.migrations > 0 && m.remote > 0) {
        "The thread moved after its pages were placed. Pages are not moved with it (only automatic NUMA balancing would migrate them later), so its accesses now cross the interconnect.".into()
    } else {
        match c.policy {
            Policy::FirstTouch => "First touch puts each page beside the thread that first uses it: all local, as long as the thread stays put.".into(),
            Policy::Interleave => format!(
                "Interleave deals pages round-robin over the {} nodes, so {} of every {} land away from any one thread; in exchange no single memory or link carries all the traffic — the choice for data every socket shares.",
                c.sockets,
                c.sockets - 1,
                c.sockets
            ),
            Policy::Bind(n) => format!(
                "Every page is bound to node {n}: local only for a thread on socket {n}."
            ),
        }
    });
    out
}

pub(super) fn check(m: &Numa) -> Result<(), String> {
    let c = &m.config;
    if m.done > c.accesses || m.local as usize + m.remote as usize != m.done {
        return Err("every access is local or remote, once".into());
    }
    if m.thread >= c.sockets || m.page_node.len() != c.pages {
        return Err("the thread or a page is off the machine".into());
    }
    if m.page_node.iter().flatten().any(|&n| n >= c.sockets) {
        return Err("a page lives on a node that does not exist".into());
    }
    if m.done > 0 {
        let avg = m.latency_sum_ns / m.done as u64;
        if avg < u64::from(c.local_ns) || avg > u64::from(m.worst_latency_ns()) {
            return Err("the average latency left [local, worst remote]".into());
        }
    }
    if m.link_bytes.iter().sum::<u64>() != m.hop_sum * LINE_BYTES {
        return Err("bytes on the links do not match the hops travelled".into());
    }
    if m.recent.len() > RECENT_KEPT.min(m.done)
        || m.recent.last().is_some_and(|a| a.number != m.done)
        || m.recent.iter().any(|a| {
            a.latency_ns != m.latency_ns(a.from, a.node) || a.gbs != m.path_gbs(a.from, a.node)
        })
    {
        return Err("the recent accesses disagree with the run".into());
    }
    // Little's law: no run beats k lines per local latency (one tenth of
    // slack for rounding the figure to tenths).
    let ceiling = ratio(
        u64::from(m.lines_in_flight()) * LINE_BYTES,
        u64::from(c.local_ns),
        1,
    );
    if m.done > 0 && m.bandwidth_tenths() > ceiling + 1 {
        return Err("the thread pulled more than its lines in flight allow".into());
    }
    if m.remote == 0 && m.hop_sum != 0 {
        return Err("hops were counted without a remote access".into());
    }
    Ok(())
}

/// One core's bandwidth ceiling by Little's law, against the socket's.
fn ceiling_why(m: &Numa) -> String {
    let c = &m.config;
    let k = m.lines_in_flight();
    let far = farthest(c.sockets, m.thread);
    let offered = if m.fill_buffer_bound() {
        format!(
            "The code offers {} independent misses, but the core's {} L1D fill buffers keep only {k} in flight",
            c.in_flight, c.fill_buffers
        )
    } else {
        format!(
            "The core keeps {k} miss{} in flight (it has {} fill buffers)",
            if k == 1 { "" } else { "es" },
            c.fill_buffers
        )
    };
    format!(
        "{offered}: by Little's law one thread pulls at most {k} × {LINE_BYTES} B / latency, {} GB/s from local memory and {} GB/s from node {far}. The {} GB/s of local memory is the socket's, reached only with many cores loading at once.",
        fixed(m.thread_ceiling_tenths(m.thread, m.thread), 1),
        fixed(m.thread_ceiling_tenths(m.thread, far), 1),
        c.local_gbs
    )
}
