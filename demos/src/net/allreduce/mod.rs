//! All-reduce: ring against tree, chunk by chunk, with the partial sums.
//!
//! N GPUs each hold a vector of small integers; at the end every GPU must hold
//! their element-wise sum. Each step applies the real transfers of the chosen
//! algorithm ([`schedule`]) to the real values, tracking which GPUs' inputs
//! every element already includes, and costs the step in the α–β model
//! ([`cost`]) for a message of `message_bytes`. Break it with a slow link or a
//! straggler GPU and watch every ring step wait for it.
//!
//! Focus keys: `gpu-<g>` (0-based, as NCCL ranks), `link-<from>-<to>` (a
//! transfer's arrow), `chunk-<c>` (ring chunk c), `tree-a`, `tree-b`,
//! `cost-chart` (time against message size).

pub mod cost;
pub mod schedule;
#[cfg(test)]
mod tests;

use crate::model::{Event, Figure, Model, Outcome, Refusal};
use crate::rng::Rng;
use crate::text::{duration, fixed, plural};
use crate::Bound;
use cost::{algbw_x100, busbw_x100, Fabric, SlowLink, Straggler};
use schedule::{total_steps, transfers, tree_a, tree_b, Algorithm, Transfer, Tree};
use serde::{Deserialize, Serialize};

/// GPUs in the all-reduce (the inclusion masks are one `u64` bit per GPU).
pub const GPUS: Bound<usize> = Bound::new("number of GPUs", "", 2, 64);
/// Elements per vector shown.
pub const ELEMENTS: Bound<usize> = Bound::new("number of elements per vector", "", 1, 64);
/// α, ns per step.
pub const ALPHA_NS: Bound<u64> = Bound::new("latency per step α", " ns", 100, 1_000_000);
/// β, GB/s per GPU port.
pub const GBPS: Bound<u64> = Bound::new("bandwidth β of each GPU's link", " GB/s", 1, 1_000);
/// S, the message, bytes (16 GiB at most).
pub const MESSAGE_BYTES: Bound<u64> = Bound::new("message size S", " bytes", 1, 1 << 34);
/// How many times slower a slow link runs.
pub const SLOW_FACTOR: Bound<u64> = Bound::new("slow link's factor", "×", 2, 64);
/// How late a straggler starts each send.
pub const DELAY_NS: Bound<u64> = Bound::new("straggler's delay per send", " ns", 1, 10_000_000);

/// How the input vectors are filled.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Fill {
    /// GPU g holds g + 1 in every element: every sum is N(N+1)/2.
    Pattern,
    /// Digits 0–9 from this seed.
    Seeded(u64),
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct AllReduceConfig {
    pub gpus: usize,
    /// Elements per vector shown (the cost model uses `message_bytes`).
    pub elements: usize,
    pub fill: Fill,
    pub algorithm: Algorithm,
    /// α, ns per step.
    pub alpha_ns: u64,
    /// β, GB/s per GPU port.
    pub gbps: u64,
    /// S, the all-reduced message in bytes, for the timings.
    pub message_bytes: u64,
}

impl Default for AllReduceConfig {
    /// α = 10 µs is close to NCCL's own per-hop estimate for the ring over a
    /// network (`hwLat[NET][Ring][Simple]` = 9.6 µs in src/graph/tuning.cc);
    /// β = 25 GB/s is one 200 Gbit/s NIC per GPU; S = 64 MiB is a typical
    /// gradient bucket size scale for data-parallel training.
    fn default() -> Self {
        AllReduceConfig {
            gpus: 4,
            elements: 8,
            fill: Fill::Pattern,
            algorithm: Algorithm::Ring,
            alpha_ns: 10_000,
            gbps: 25,
            message_bytes: 64 << 20,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum AllReduceAction {
    /// Run the next step.
    Step,
    /// Start the all-reduce again from the inputs.
    Restart,
    /// Switch algorithm (restarts).
    SetAlgorithm(Algorithm),
    /// Slow one GPU's link, or heal it (restarts).
    SetSlowLink(Option<SlowLink>),
    /// Make one GPU a straggler, or not (restarts).
    SetStraggler(Option<Straggler>),
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct AllReduce {
    /// How the inputs were filled (kept so a view can restart with new sizes).
    pub fill: Fill,
    pub algorithm: Algorithm,
    pub fabric: Fabric,
    pub message_bytes: u64,
    /// Each GPU's input vector.
    pub inputs: Vec<Vec<i64>>,
    /// Each GPU's buffer now.
    pub values: Vec<Vec<i64>>,
    /// Which GPUs' inputs each buffer element already sums (bit g = GPU g).
    pub included: Vec<Vec<u64>>,
    /// Steps taken and steps in all.
    pub step: usize,
    pub total_steps: usize,
    /// The transfers of the last step, for the arrows.
    pub last: Vec<Transfer>,
    /// Time of each step taken, ns.
    pub step_ns: Vec<u64>,
    pub elapsed_ns: u64,
    /// Elements each GPU has sent so far.
    pub sent: Vec<u64>,
    /// NCCL's two trees (the second is used by the double tree only).
    pub trees: [Tree; 2],
}

fn everyone(n: usize) -> u64 {
    if n == 64 {
        u64::MAX
    } else {
        (1u64 << n) - 1
    }
}

/// "4 KiB", "1.5 MiB", "64 MiB", "700 B".
pub fn bytes_text(b: u64) -> String {
    for (unit, size) in [("GiB", 1u64 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)] {
        if b >= size {
            let tenths = b * 10 / size;
            return if tenths.is_multiple_of(10) {
                format!("{} {unit}", tenths / 10)
            } else {
                format!("{} {unit}", fixed(tenths as i64, 1))
            };
        }
    }
    format!("{b} B")
}

impl AllReduce {
    pub fn gpus(&self) -> usize {
        self.fabric.gpus
    }

    /// The configuration this run started from (algorithm as now chosen).
    pub fn config(&self) -> AllReduceConfig {
        AllReduceConfig {
            gpus: self.gpus(),
            elements: self.inputs[0].len(),
            fill: self.fill,
            algorithm: self.algorithm,
            alpha_ns: self.fabric.alpha_ns,
            gbps: self.fabric.gbps,
            message_bytes: self.message_bytes,
        }
    }

    pub fn done(&self) -> bool {
        self.step == self.total_steps
    }

    /// The element-wise sum every GPU must end with.
    pub fn expected(&self) -> Vec<i64> {
        (0..self.inputs[0].len())
            .map(|e| self.inputs.iter().map(|v| v[e]).sum())
            .collect()
    }

    /// Every GPU holds the same vector.
    pub fn identical(&self) -> bool {
        self.values.windows(2).all(|w| w[0] == w[1])
    }

    /// "reduce-scatter", "all-gather", "reduce", "broadcast" or "done".
    pub fn phase(&self) -> &'static str {
        if self.done() {
            "done"
        } else {
            self.phase_of(self.step)
        }
    }

    /// The whole run's time for `message_bytes`, ns (the cost model's answer).
    pub fn predicted_ns(&self) -> u64 {
        self.fabric.total_ns(self.algorithm, self.message_bytes)
    }

    /// Share of the vector GPU g has sent, in tenths of a percent.
    pub fn sent_share_tenths(&self, g: usize) -> i64 {
        crate::text::share_tenths(self.sent[g] as i64, self.inputs[0].len() as i64)
    }

    fn restart(&mut self) {
        let n = self.gpus();
        self.values = self.inputs.clone();
        self.included = (0..n)
            .map(|g| vec![1u64 << g; self.inputs[0].len()])
            .collect();
        self.step = 0;
        self.total_steps = total_steps(self.algorithm, n);
        self.last.clear();
        self.step_ns.clear();
        self.elapsed_ns = 0;
        self.sent = vec![0; n];
    }

    fn run_step(&mut self) -> Outcome {
        if self.done() {
            return Err(Refusal::new(
                "The all-reduce is complete: every GPU holds the sum. Restart it, or change the algorithm or the fault.",
            ));
        }
        let n = self.gpus();
        let moves = transfers(self.algorithm, n, self.inputs[0].len(), self.step);
        // Every transfer of a step reads the buffers as they were before it.
        let (values, included) = (self.values.clone(), self.included.clone());
        for t in &moves {
            self.sent[t.from] += (t.end - t.start) as u64;
            for e in t.start..t.end {
                if t.reduce {
                    self.values[t.to][e] += values[t.from][e];
                    self.included[t.to][e] |= included[t.from][e];
                } else {
                    self.values[t.to][e] = values[t.from][e];
                    self.included[t.to][e] = included[t.from][e];
                }
            }
        }
        let elapsed = self
            .fabric
            .elapsed_ns(self.algorithm, self.step + 1, self.message_bytes);
        let ns = elapsed - self.elapsed_ns;
        let healthy = self.healthy();
        let healthy_ns = healthy.step_ns(self.algorithm, self.step, self.message_bytes);
        let slowed = self.slowed(self.step);
        self.step += 1;
        self.step_ns.push(ns);
        self.elapsed_ns = elapsed;
        let mut out = vec![self.describe(&moves, ns)];
        if slowed {
            out.push(
                Event::warn(format!(
                    "This step took {} instead of {}: it waited for {}.",
                    duration(ns),
                    duration(healthy_ns),
                    self.culprit()
                ))
                .at(format!("gpu-{}", self.culprit_gpu())),
            );
        }
        self.last = moves;
        if self.done() {
            out.push(self.finale());
        }
        Ok(out)
    }

    /// The same fabric without the slow link or the straggler.
    fn healthy(&self) -> Fabric {
        Fabric {
            slow: None,
            straggler: None,
            ..self.fabric
        }
    }

    /// Step `k` costs more than it would on the healthy fabric.
    pub fn slowed(&self, k: usize) -> bool {
        let (c, h) = (
            self.fabric.step(self.algorithm, k),
            self.healthy().step(self.algorithm, k),
        );
        c.units > h.units || c.fixed_ns > h.fixed_ns
    }

    fn culprit_gpu(&self) -> usize {
        self.fabric
            .slow
            .map(|s| s.gpu)
            .or(self.fabric.straggler.map(|s| s.gpu))
            .unwrap_or(0)
    }

    fn culprit(&self) -> String {
        match (self.fabric.slow, self.fabric.straggler) {
            (Some(s), _) => format!("GPU {}'s link ({}× slower)", s.gpu, s.factor),
            (_, Some(s)) => format!("straggler GPU {} ({} late)", s.gpu, duration(s.delay_ns)),
            _ => "nothing".into(),
        }
    }

    /// One line for a step, following the first transfer's actual numbers.
    fn describe(&self, moves: &[Transfer], ns: u64) -> Event {
        let n = self.gpus();
        let Some(t) = moves.iter().find(|t| t.end > t.start).or(moves.first()) else {
            return Event::info("No transfer in this step.");
        };
        let sums: Vec<String> = (t.start..t.end.min(t.start + 4))
            .map(|e| self.values[t.to][e].to_string())
            .collect();
        let count = self.included[t.to]
            .get(t.start)
            .map_or(0, |m| m.count_ones());
        let what = match self.algorithm {
            Algorithm::Ring => {
                let c = (0..n)
                    .find(|&c| schedule::chunk(c, n, self.inputs[0].len()).0 == t.start)
                    .unwrap_or(0);
                format!("chunk {c}")
            }
            _ if t.tree == 1 => "the second half".to_string(),
            Algorithm::DoubleTree => "the first half".to_string(),
            Algorithm::Tree => "its vector".to_string(),
        };
        let verb = if t.reduce {
            format!("adds it in: {count} of {n} inputs summed")
        } else {
            "takes the finished sum".to_string()
        };
        Event::info(format!(
            "Step {}/{} ({}, {} transfer{} in {}): GPU {} sends {what} to GPU {}, which {verb} ({}).",
            self.step,
            self.total_steps,
            self.phase_of(self.step - 1),
            moves.len(),
            plural(moves.len()),
            duration(ns),
            t.from,
            t.to,
            sums.join(", ")
        ))
        .at(format!("gpu-{}", t.from))
        .at(format!("gpu-{}", t.to))
        .at(format!("link-{}-{}", t.from, t.to))
    }

    fn phase_of(&self, step: usize) -> &'static str {
        let first_half = step < self.total_steps / 2;
        match (self.algorithm, first_half) {
            (Algorithm::Ring, true) => "reduce-scatter",
            (Algorithm::Ring, false) => "all-gather",
            (_, true) => "reduce",
            (_, false) => "broadcast",
        }
    }

    fn finale(&self) -> Event {
        let n = self.gpus();
        let alg = algbw_x100(self.message_bytes, self.elapsed_ns);
        let sum: Vec<String> = self.values[0].iter().take(8).map(i64::to_string).collect();
        let text = format!(
            "Done in {} steps and {}: all {n} GPUs hold [{}{}]. For {}: algbw = S/t = {} GB/s, busbw = algbw × 2(N−1)/N = {} GB/s.",
            self.total_steps,
            duration(self.elapsed_ns),
            sum.join(", "),
            if self.values[0].len() > 8 { ", …" } else { "" },
            bytes_text(self.message_bytes),
            fixed(alg as i64, 2),
            fixed(busbw_x100(alg, n) as i64, 2)
        );
        if self.identical() && self.values[0] == self.expected() {
            Event::done(text)
        } else {
            Event::fault(text)
        }
    }

    /// What NCCL's own tree costs, and where it crosses the ring.
    fn nccl_sentence(&self) -> String {
        let n = self.gpus();
        let f = &self.fabric;
        let hops = f.nccl_tree_hops();
        let cross = match f.nccl_crossover_bytes() {
            Some(x) => format!("so NCCL's ring–tree crossover is at {}", bytes_text(x)),
            None => format!("so with {n} GPUs the ring is never slower"),
        };
        format!(
            "NCCL pipelines chunks through its double binary tree: its tuner prices it at 2⌊log₂N⌋·α + 2S/β = {hops} × {} + 2S/{} GB/s (src/graph/tuning.cc), {cross}.",
            duration(f.alpha_ns),
            f.gbps
        )
    }

    fn reconfigure(&mut self, text: String) -> Outcome {
        self.restart();
        Ok(vec![Event::info(format!(
            "{text} Restarted: {} steps for {} GPUs.",
            self.total_steps,
            self.gpus()
        ))])
    }

    fn check_gpu(&self, gpu: usize) -> Result<(), Refusal> {
        if gpu >= self.gpus() {
            return Err(Refusal::new(format!(
                "There are GPUs 0 to {}; GPU {gpu} does not exist.",
                self.gpus() - 1
            )));
        }
        Ok(())
    }
}

impl Model for AllReduce {
    type Config = AllReduceConfig;
    type Action = AllReduceAction;

    fn validate(c: &AllReduceConfig) -> Result<(), String> {
        GPUS.check(c.gpus)?;
        ELEMENTS.check(c.elements)?;
        ALPHA_NS.check(c.alpha_ns)?;
        GBPS.check(c.gbps)?;
        MESSAGE_BYTES.check(c.message_bytes)?;
        Ok(())
    }

    fn new(c: &AllReduceConfig) -> Self {
        let mut rng = match c.fill {
            Fill::Seeded(seed) => Some(Rng::new(seed)),
            Fill::Pattern => None,
        };
        let inputs = (0..c.gpus)
            .map(|g| {
                (0..c.elements)
                    .map(|_| match rng.as_mut() {
                        Some(r) => r.range(0, 9) as i64,
                        None => g as i64 + 1,
                    })
                    .collect()
            })
            .collect();
        let mut m = AllReduce {
            fill: c.fill,
            algorithm: c.algorithm,
            fabric: Fabric {
                gpus: c.gpus,
                alpha_ns: c.alpha_ns,
                gbps: c.gbps,
                slow: None,
                straggler: None,
            },
            message_bytes: c.message_bytes,
            inputs,
            values: Vec::new(),
            included: Vec::new(),
            step: 0,
            total_steps: 0,
            last: Vec::new(),
            step_ns: Vec::new(),
            elapsed_ns: 0,
            sent: Vec::new(),
            trees: [tree_a(c.gpus), tree_b(c.gpus)],
        };
        m.restart();
        m
    }

    fn intro(&self) -> Event {
        let sum: Vec<String> = self.expected().iter().take(8).map(i64::to_string).collect();
        Event::info(format!(
            "{} GPUs each hold {} numbers; all-reduce must leave every GPU with their sum [{}{}]. The {} takes {} steps.",
            self.gpus(),
            self.inputs[0].len(),
            sum.join(", "),
            if self.inputs[0].len() > 8 { ", …" } else { "" },
            self.algorithm.label(),
            self.total_steps
        ))
    }

    fn apply(&mut self, action: &AllReduceAction) -> Outcome {
        match *action {
            AllReduceAction::Step => self.run_step(),
            AllReduceAction::Restart => {
                if self.step == 0 {
                    return Err(Refusal::new("The all-reduce has not started yet."));
                }
                self.reconfigure("Back to the inputs.".into())
            }
            AllReduceAction::SetAlgorithm(a) => {
                if a == self.algorithm {
                    return Err(Refusal::new(format!(
                        "The {} is already chosen.",
                        a.label()
                    )));
                }
                self.algorithm = a;
                self.reconfigure(format!("Switched to the {}.", a.label()))
            }
            AllReduceAction::SetSlowLink(slow) => {
                if let Some(s) = slow {
                    self.check_gpu(s.gpu)?;
                    SLOW_FACTOR.admit(s.factor)?;
                }
                if slow == self.fabric.slow {
                    return Err(Refusal::new("The links are already like that."));
                }
                self.fabric.slow = slow;
                let text = match slow {
                    Some(s) => format!("GPU {}'s link now runs {}× slower.", s.gpu, s.factor),
                    None => "Every link runs at full speed again.".into(),
                };
                self.reconfigure(text)
            }
            AllReduceAction::SetStraggler(straggler) => {
                if let Some(s) = straggler {
                    self.check_gpu(s.gpu)?;
                    DELAY_NS.admit(s.delay_ns)?;
                }
                if straggler == self.fabric.straggler {
                    return Err(Refusal::new("The GPUs are already like that."));
                }
                self.fabric.straggler = straggler;
                let text = match straggler {
                    Some(s) => format!(
                        "GPU {} now starts each send {} late.",
                        s.gpu,
                        duration(s.delay_ns)
                    ),
                    None => "No GPU straggles any more.".into(),
                };
                self.reconfigure(text)
            }
        }
    }

    fn next_auto(&self) -> Result<AllReduceAction, Refusal> {
        if self.done() {
            Err(Refusal::new(
                "The all-reduce is complete: every GPU holds the sum. Restart to watch it again.",
            ))
        } else {
            Ok(AllReduceAction::Step)
        }
    }

    fn check(&self) -> Result<(), String> {
        let n = self.gpus();
        // Every element is exactly the sum of the inputs it claims to include,
        // and always includes its own GPU's input.
        for g in 0..n {
            for (e, &v) in self.values[g].iter().enumerate() {
                let mask = self.included[g][e];
                let sum: i64 = (0..n)
                    .filter(|&j| mask >> j & 1 == 1)
                    .map(|j| self.inputs[j][e])
                    .sum();
                if v != sum {
                    return Err(format!(
                        "GPU {g} element {e} holds {v}, not the sum of its inputs {sum}"
                    ));
                }
                if mask >> g & 1 == 0 {
                    return Err(format!("GPU {g} element {e} lost its own input"));
                }
            }
        }
        if self.done() {
            if !self.identical() {
                return Err("finished with different vectors on different GPUs".into());
            }
            if self.included.iter().flatten().any(|&m| m != everyone(n)) {
                return Err("finished with an element missing some GPU's input".into());
            }
        }
        if self.step > self.total_steps || self.step_ns.len() != self.step {
            return Err("step count out of range".into());
        }
        if self.elapsed_ns != self.step_ns.iter().sum::<u64>() {
            return Err("elapsed time is not the sum of the steps".into());
        }
        Ok(())
    }

    fn status(&self) -> Vec<Figure> {
        let n = self.gpus();
        let total = self.predicted_ns();
        let alg = algbw_x100(self.message_bytes, total);
        vec![
            Figure::new(
                "step",
                "step",
                format!("{}/{}", self.step, self.total_steps),
            ),
            Figure::new("phase", "phase", self.phase()),
            Figure::new("elapsed", "elapsed", duration(self.elapsed_ns)),
            Figure::new("total", "whole run", duration(total)),
            Figure::new("algbw", "algbw", format!("{} GB/s", fixed(alg as i64, 2))),
            Figure::new(
                "busbw",
                "busbw",
                format!("{} GB/s", fixed(busbw_x100(alg, n) as i64, 2)),
            ),
            Figure::new(
                "sent",
                "GPU 0 sent",
                crate::text::tenths(self.sent_share_tenths(0)),
            ),
            Figure::new(
                "identical",
                "all GPUs equal",
                if self.identical() { "yes" } else { "no" },
            ),
        ]
    }

    fn why(&self) -> Vec<String> {
        let n = self.gpus();
        let f = &self.fabric;
        let healthy = self.healthy();
        let mut out = vec![format!(
            "The ring takes 2(N−1) = {} steps but each moves only 1/{n} of the data, so every GPU sends 2(N−1)/N = {} times its vector; the unpipelined tree takes 2⌈log₂N⌉ = {} steps but moves the whole vector each time.",
            2 * (n - 1),
            fixed(200 * (n as i64 - 1) / n as i64, 2),
            total_steps(Algorithm::Tree, n)
        )];
        if let Some(x) = healthy.crossover_bytes(Algorithm::Ring, Algorithm::Tree) {
            out.push(format!(
                "With α = {} and β = {} GB/s this unpipelined tree is faster below {} and the ring above it: latency rules small messages, bandwidth large ones.",
                duration(f.alpha_ns),
                f.gbps,
                bytes_text(x)
            ));
        }
        out.push(self.nccl_sentence());
        out.push(
            "busbw = algbw × 2(N−1)/N. Any all-reduce must move at least 2(N−1)/N of the message through each GPU's link, so busbw is the speed that link needs, and it can be compared with the link's bandwidth for any algorithm and any N (nccl-tests, doc/PERFORMANCE.md)."
                .into(),
        );
        if f.slow.is_some() || f.straggler.is_some() {
            let (now, before) = (
                f.total_ns(self.algorithm, self.message_bytes),
                healthy.total_ns(self.algorithm, self.message_bytes),
            );
            let steps = self.total_steps;
            let slowed = (0..steps).filter(|&k| self.slowed(k)).count();
            out.push(format!(
                "With {} the {} takes {} instead of {}: a step is as slow as its slowest transfer, and {slowed} of its {steps} steps involve that GPU{}.",
                self.culprit(),
                self.algorithm.label(),
                duration(now),
                duration(before),
                if self.algorithm == Algorithm::Ring {
                    " — in a ring every GPU is in every step"
                } else {
                    ""
                }
            ));
        }
        out
    }

    fn leaves_out() -> &'static str {
        "Leaves out: pipelining in the steps shown (NCCL's pipelined tree is drawn only as its tuner's estimate, for the healthy fabric: the tuner sees no slow link or straggler), NCCL's per-size correction of that estimate, multiple channels, NVLink/PCIe topology, protocols (LL, LL128, Simple) and the reduction's compute time."
    }
}
