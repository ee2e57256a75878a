//! The demo's model: Step hashes the next connection's QPs onto their
//! uplinks; once all are placed, Step runs the all-reduce step with the
//! chosen balancer (and, for comparison, the other two on the same draw).

use super::flows::{draw, hashed_paths, qp_hash, Connection};
use super::odds::Odds;
use super::send::{alone, run, Balancer, Pauses, Step, PACKETS};
use crate::bound::Bound;
use crate::memo::Memo;
use crate::model::{Event, Figure, Model, Outcome, Refusal};
use crate::text::{decimal, plural};
use serde::{Deserialize, Serialize};

/// Connections in the step: up to 32, enough to fill 16 uplinks twice.
pub const FLOWS: Bound<u32> = Bound::new("number of connections", "", 1, 32);
/// The leaf's equal-cost uplinks.
pub const PATHS: Bound<u32> = Bound::new("number of uplinks", "", 2, 16);
/// QPs a connection (NCCL's `NCCL_IB_QPS_PER_CONNECTION` sets this).
pub const QPS: Bound<u32> = Bound::new("number of QPs a connection", "", 1, 4);
/// Pauses in each connection's step.
pub const GAPS: Bound<u32> = Bound::new("number of pauses", "", 0, 7);
/// A pause's length, in ticks (one tick sends one packet).
pub const PAUSE: Bound<u32> = Bound::new("pause", " ticks", 0, 256);

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct EcmpConfig {
    pub flows: u32,
    pub paths: u32,
    pub qps: u32,
    pub balancer: Balancer,
    pub gaps: u32,
    pub pause: u32,
    /// Draws the source ports and QP numbers (and spraying's choices).
    pub seed: u64,
}

impl Default for EcmpConfig {
    /// The case: 8 large flows on 8 uplinks, one QP each, plain
    /// ECMP, no pauses (a bulk RDMA transfer at line rate has none).
    fn default() -> Self {
        EcmpConfig {
            flows: 8,
            paths: 8,
            qps: 1,
            balancer: Balancer::Ecmp,
            gaps: 0,
            pause: 0,
            seed: 1,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Ecmp {
    pub config: EcmpConfig,
    /// Connections hashed so far.
    pub placed: usize,
    /// Whether the step has run.
    pub sent: bool,
    #[serde(skip)]
    odds: Memo<(u32, u32, u32), Odds>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum EcmpAction {
    /// Hash the next connection's QPs onto uplinks.
    Place,
    /// Hash every connection left.
    PlaceAll,
    /// Run the all-reduce step.
    Send,
    /// New source ports and QP numbers.
    Redraw,
    SetFlows(u32),
    SetPaths(u32),
    SetQps(u32),
    SetBalancer(Balancer),
    SetGaps(u32),
    SetPause(u32),
}

impl Ecmp {
    pub fn flows(&self) -> usize {
        self.config.flows as usize
    }
    pub fn paths(&self) -> usize {
        self.config.paths as usize
    }
    pub fn qps(&self) -> usize {
        self.config.qps as usize
    }
    /// Every QP hashed: N = connections × QPs.
    pub fn hashed_qps(&self) -> usize {
        self.flows() * self.qps()
    }

    pub fn connections(&self) -> Vec<Connection> {
        draw(self.flows(), self.qps(), self.config.seed)
    }

    /// Every QP's hashed uplink, `[connection][qp]`.
    pub fn hashed(&self) -> Vec<Vec<usize>> {
        hashed_paths(&self.connections(), self.paths())
    }

    /// QPs on each uplink, counting the connections placed so far.
    pub fn load(&self) -> Vec<usize> {
        let mut out = vec![0; self.paths()];
        for qps in self.hashed().iter().take(self.placed) {
            for &p in qps {
                out[p] += 1;
            }
        }
        out
    }

    pub fn all_placed(&self) -> bool {
        self.placed >= self.flows()
    }

    pub fn idle_now(&self) -> usize {
        self.load().iter().filter(|&&l| l == 0).count()
    }

    pub fn busiest_now(&self) -> usize {
        self.load().into_iter().max().unwrap_or(0)
    }

    /// Whether two QPs share an uplink so far.
    pub fn collided(&self) -> bool {
        self.busiest_now() > 1
    }

    /// The mean QPs an uplink once all are placed: N/k.
    pub fn mean(&self) -> f64 {
        self.hashed_qps() as f64 / self.paths() as f64
    }

    /// The closed forms for N QPs on k uplinks.
    pub fn odds(&self) -> Odds {
        let c = &self.config;
        self.odds.get(&(c.flows, c.paths, c.qps), || {
            Odds::of(self.hashed_qps(), self.paths())
        })
    }

    /// ECMP's step time ÷ a connection alone, for a busiest uplink of M
    /// QPs and no pauses: max(1, M/q), since that uplink carries M/q
    /// connections' worth of packets at one a tick.
    pub fn stretch_for(&self, busiest: usize) -> f64 {
        (busiest as f64 / self.qps() as f64).max(1.0)
    }

    /// E[max(1, M/q)]: ECMP's expected stretch, with no pauses.
    pub fn expected_stretch(&self) -> f64 {
        self.odds().expect(|m| self.stretch_for(m))
    }

    pub fn pauses(&self) -> Pauses {
        Pauses {
            gaps: self.config.gaps as usize,
            pause: u64::from(self.config.pause),
        }
    }

    /// A connection alone on an idle uplink, in ticks.
    pub fn alone(&self) -> u64 {
        alone(self.pauses())
    }

    /// The step with `balancer`, on this draw.
    pub fn step_with(&self, balancer: Balancer) -> Step {
        run(
            balancer,
            &self.hashed(),
            self.paths(),
            self.pauses(),
            self.config.seed,
        )
    }

    /// The step with the chosen balancer.
    pub fn step(&self) -> Step {
        self.step_with(self.config.balancer)
    }

    /// Step time ÷ a connection alone.
    pub fn stretch(&self, s: &Step) -> f64 {
        s.ticks as f64 / self.alone().max(1) as f64
    }

    /// The busiest uplink's packets ÷ the mean.
    pub fn packet_peak(&self, s: &Step) -> f64 {
        let total: usize = s.carried.iter().sum();
        let most = s.carried.iter().copied().max().unwrap_or(0);
        if total == 0 {
            return 0.0;
        }
        most as f64 * self.paths() as f64 / total as f64
    }

    fn restart(&mut self) {
        self.placed = 0;
        self.sent = false;
    }

    fn reconfigure(&mut self, next: EcmpConfig, said: String) -> Outcome {
        Ecmp::validate(&next).map_err(Refusal::new)?;
        let rehash = (next.flows, next.paths, next.qps, next.seed)
            != (
                self.config.flows,
                self.config.paths,
                self.config.qps,
                self.config.seed,
            );
        self.config = next;
        if rehash {
            self.restart();
        } else {
            self.sent = false;
        }
        let o = self.odds();
        Ok(vec![Event::info(format!(
            "{said} {} QP{} on {} uplinks: on average {} uplinks stay idle, and all land apart with probability {} %.",
            self.hashed_qps(),
            plural(self.hashed_qps()),
            self.paths(),
            decimal(o.idle, 2),
            decimal(o.no_collision * 100.0, 2)
        ))
        .at("odds")])
    }

    fn same(what: &str, v: impl std::fmt::Display) -> Refusal {
        Refusal::new(format!("The {what} is {v} already."))
    }

    fn place(&mut self) -> Outcome {
        if self.all_placed() {
            return Err(Refusal::new(format!(
                "All {} connections are hashed. Run the step, or draw new ports.",
                self.flows()
            )));
        }
        let i = self.placed;
        let c = &self.connections()[i];
        let hashed = self.hashed();
        let before = self.load();
        self.placed += 1;
        let each: Vec<String> = (0..self.qps())
            .map(|qp| {
                let p = hashed[i][qp];
                format!(
                    "QP {:#08x} hashes to {:#010x}, uplink {p}{}",
                    c.qpns[qp],
                    qp_hash(c, qp),
                    if before[p] > 0 {
                        format!(" (already carrying {})", before[p])
                    } else {
                        String::new()
                    }
                )
            })
            .collect();
        let mut event = Event::info(format!(
            "Connection {i}: {}:{} → {}:{}. {}.",
            c.src,
            c.src_port,
            c.dst,
            c.dst_port,
            each.join("; ")
        ));
        for &p in &hashed[i] {
            event = event.at(format!("path-{p}"));
        }
        let shared = hashed[i].iter().any(|&p| before[p] > 0);
        if shared {
            event.tone = crate::model::Tone::Warn;
        }
        let mut events = vec![event];
        if self.all_placed() {
            events.push(self.placed_event());
        }
        Ok(events)
    }

    fn placed_event(&self) -> Event {
        let o = self.odds();
        Event::done(format!(
            "All {} QPs are hashed: {} of {} uplinks idle (expected {}), the busiest carries {} (expected {}). Step runs the all-reduce step.",
            self.hashed_qps(),
            self.idle_now(),
            self.paths(),
            decimal(o.idle, 2),
            self.busiest_now(),
            decimal(o.expected_busiest(), 2)
        ))
        .at("odds")
    }

    fn place_all(&mut self) -> Outcome {
        if self.all_placed() {
            return self.place();
        }
        let left = self.flows() - self.placed;
        self.placed = self.flows();
        Ok(vec![
            Event::info(format!(
                "The {left} connection{} left are hashed.",
                plural(left)
            )),
            self.placed_event(),
        ])
    }

    fn send(&mut self) -> Outcome {
        if !self.all_placed() {
            return Err(Refusal::new(format!(
                "Hash every connection first: {} of {} are placed.",
                self.placed,
                self.flows()
            )));
        }
        if self.sent {
            return Err(Refusal::new(
                "The step has run. Draw new ports or change a setting to run another.",
            ));
        }
        self.sent = true;
        let s = self.step();
        let mut text = format!(
            "With {}, the step takes {} ticks: {}× a connection alone ({} ticks). The busiest uplink carries {}× the mean.",
            self.config.balancer.name(),
            s.ticks,
            decimal(self.stretch(&s), 2),
            self.alone(),
            decimal(self.packet_peak(&s), 2)
        );
        if s.out_of_order > 0 {
            text.push_str(&format!(
                " {} packet{} arrived out of order.",
                s.out_of_order,
                plural(s.out_of_order)
            ));
        }
        let tone = if s.out_of_order > 0 || self.stretch(&s) > 1.0 {
            crate::model::Tone::Warn
        } else {
            crate::model::Tone::Done
        };
        Ok(vec![Event::new(tone, text).at("compare")])
    }

    fn redraw(&mut self) -> Outcome {
        let mut next = self.config.clone();
        next.seed = next.seed.wrapping_add(1);
        let seed = next.seed;
        self.reconfigure(
            next,
            format!("New source ports and QP numbers (draw {seed})."),
        )
    }
}

impl Model for Ecmp {
    type Config = EcmpConfig;
    type Action = EcmpAction;

    fn validate(c: &EcmpConfig) -> Result<(), String> {
        FLOWS.check(c.flows)?;
        PATHS.check(c.paths)?;
        QPS.check(c.qps)?;
        GAPS.check(c.gaps)?;
        PAUSE.check(c.pause)?;
        Ok(())
    }

    fn new(c: &EcmpConfig) -> Self {
        Ecmp {
            config: c.clone(),
            placed: 0,
            sent: false,
            odds: Memo::default(),
        }
    }

    fn intro(&self) -> Event {
        Event::info(format!(
            "{} connections cross from leaf A to leaf B over {} equal-cost uplinks, {} QP{} each. The switch hashes each QP's addresses, ports and QP number and cuts the hash space into {} equal regions, one an uplink. Step hashes the next connection.",
            self.flows(),
            self.paths(),
            self.qps(),
            plural(self.qps()),
            self.paths()
        ))
    }

    fn apply(&mut self, action: &EcmpAction) -> Outcome {
        let mut next = self.config.clone();
        match *action {
            EcmpAction::Place => self.place(),
            EcmpAction::PlaceAll => self.place_all(),
            EcmpAction::Send => self.send(),
            EcmpAction::Redraw => self.redraw(),
            EcmpAction::SetFlows(n) => {
                let n = FLOWS.admit(n)?;
                if n == self.config.flows {
                    return Err(Self::same("number of connections", n));
                }
                next.flows = n;
                self.reconfigure(next, format!("{n} connection{} now.", plural(n as usize)))
            }
            EcmpAction::SetPaths(k) => {
                let k = PATHS.admit(k)?;
                if k == self.config.paths {
                    return Err(Self::same("number of uplinks", k));
                }
                next.paths = k;
                self.reconfigure(next, format!("{k} uplinks now."))
            }
            EcmpAction::SetQps(q) => {
                let q = QPS.admit(q)?;
                if q == self.config.qps {
                    return Err(Self::same("number of QPs a connection", q));
                }
                next.qps = q;
                self.reconfigure(
                    next,
                    format!(
                        "{q} QP{} a connection now, each hashed on its own.",
                        plural(q as usize)
                    ),
                )
            }
            EcmpAction::SetBalancer(b) => {
                if b == self.config.balancer {
                    return Err(Refusal::new(format!("The leaf uses {} already.", b.name())));
                }
                next.balancer = b;
                self.reconfigure(next, format!("The leaf uses {} now.", b.name()))
            }
            EcmpAction::SetGaps(g) => {
                let g = GAPS.admit(g)?;
                if g == self.config.gaps {
                    return Err(Self::same("number of pauses", g));
                }
                next.gaps = g;
                self.reconfigure(
                    next,
                    format!(
                        "Each connection pauses {g} time{} a step now.",
                        plural(g as usize)
                    ),
                )
            }
            EcmpAction::SetPause(t) => {
                let t = PAUSE.admit(t)?;
                if t == self.config.pause {
                    return Err(Self::same("pause", format!("{t} ticks")));
                }
                next.pause = t;
                self.reconfigure(
                    next,
                    format!("Each pause lasts {t} tick{} now.", plural(t as usize)),
                )
            }
        }
    }

    fn next_auto(&self) -> Result<EcmpAction, Refusal> {
        if !self.all_placed() {
            Ok(EcmpAction::Place)
        } else if !self.sent {
            Ok(EcmpAction::Send)
        } else {
            Err(Refusal::new(
                "The step has run. Draw new ports or change a setting to run another.",
            ))
        }
    }

    fn check(&self) -> Result<(), String> {
        Self::validate(&self.config)?;
        if self.placed > self.flows() {
            return Err("more connections placed than there are".into());
        }
        if self.sent && !self.all_placed() {
            return Err("the step ran before every connection was hashed".into());
        }
        let load = self.load();
        if load.iter().sum::<usize>() != self.placed * self.qps() {
            return Err("the uplinks do not carry every placed QP once".into());
        }
        if self.sent {
            let s = self.step();
            if s.carried.iter().sum::<usize>() != self.flows() * PACKETS {
                return Err("the step lost or made packets".into());
            }
            // No uplink sends faster than one packet a tick.
            let most = s.carried.iter().copied().max().unwrap_or(0) as u64;
            if s.ticks < most || s.ticks < self.alone() {
                return Err("the step ended before its packets could".into());
            }
        }
        Ok(())
    }

    fn status(&self) -> Vec<Figure> {
        let o = self.odds();
        let mut out = vec![
            Figure::new(
                "placed",
                "connections hashed",
                format!("{}/{}", self.placed, self.flows()),
            ),
            Figure::new("idle-now", "idle uplinks", self.idle_now()),
            Figure::new("expected-idle", "expected idle", decimal(o.idle, 2)),
            Figure::new(
                "no-collision",
                "P(no collision)",
                format!("{} %", decimal(o.no_collision * 100.0, 2)),
            ),
            Figure::new("busiest-now", "busiest uplink's QPs", self.busiest_now()),
        ];
        if self.sent {
            let s = self.step();
            out.push(Figure::new(
                "step",
                "step ÷ one alone",
                decimal(self.stretch(&s), 2),
            ));
            out.push(Figure::new("reordered", "out of order", s.out_of_order));
        }
        out
    }

    fn why(&self) -> Vec<String> {
        let (n, k, q) = (self.hashed_qps(), self.paths(), self.qps());
        let o = self.odds();
        let mut out = vec![
            format!(
                "The leaf cuts the 32-bit hash space into {k} equal regions, one an uplink, and a QP takes the uplink whose region holds its hash (RFC 2992's hash-threshold). A hash looks random, so each QP lands on any uplink with chance 1/{k}, whatever the others do."
            ),
            format!(
                "An uplink is missed by all {n} QPs with chance (1 − 1/{k})^{n}, so {k}·(1 − 1/{k})^{n} = {} uplinks stay idle on average. All {n} land apart with chance {}: {} %. {}",
                decimal(o.idle, 2),
                if n <= k { format!("{k}!/({k} − {n})!/{k}^{n}") } else { format!("0, as {n} > {k}") },
                decimal(o.no_collision * 100.0, 3),
                if self.all_placed() {
                    format!("This draw left {} idle, and its busiest uplink carries {} QPs (expected {}).", self.idle_now(), self.busiest_now(), decimal(o.expected_busiest(), 2))
                } else {
                    "Hash every connection to compare this draw.".to_string()
                }
            ),
            format!(
                "A ring all-reduce step waits for its slowest flow. Each uplink sends one packet a tick in arrival order, so an uplink carrying c equal flows gives each 1/c of its rate, and the step takes c times as long as with no collision. With no pauses, ECMP's step is max(1, M/{q}) times a connection alone for a busiest uplink of M QPs: {} on average here.",
                decimal(self.expected_stretch(), 2)
            ),
        ];
        let fix = match self.config.balancer {
            Balancer::Ecmp => format!(
                "More QPs a connection give the hash more to spread: Meta hashes the destination QP too (enhanced ECMP) and has NCCL spread each connection's messages over several QPs. With {q} QP{} a connection, each carries 1/{q} of it.",
                plural(q)
            ),
            Balancer::Flowlet => format!(
                "Flowlet switching moves a flow only at a pause, so the packets before the pause are already ahead; FLARE's rule is that nothing is reordered when the pause is longer than the paths' delay difference. A flow with no pauses is one flowlet and never moves. Here each connection pauses {} time{} for {} tick{}.",
                self.config.gaps,
                plural(self.config.gaps as usize),
                self.config.pause,
                plural(self.config.pause as usize)
            ),
            Balancer::Spray => "Packet spraying sends every packet on its own random uplink, so each carries close to the mean. A packet on a short queue can overtake one sent before it on a longer queue. Dixit et al. argue that on symmetric paths the queues stay alike, so packets arrive only slightly out of order and TCP tolerates it; here every packet that overtakes counts, however slightly.".to_string(),
        };
        out.push(fix);
        out
    }

    fn leaves_out() -> &'static str {
        "Leaves out: the spine-to-leaf downlinks and the far leaf (only the first leaf's uplinks queue), a second hop's hash (and the polarisation of two switches using one hash), link failures and unequal paths, congestion control (senders never slow down), message sizes (every connection sends 64 equal packets a step), the receiver's cost of reordering (we count packets out of order; we do not model retransmits), flowlet timeouts (every pause starts a flowlet), CONGA's congestion feedback from the far leaf (a new flowlet takes the shortest local queue), and real switch hash functions (ours is Toeplitz under its standard key). The busiest uplink's distribution is exact to a tail below 10^-13; the flowlet and spraying runs are sampled."
    }
}
