//! The `/fabric/pfc` model: the fabric run tick by tick, the settings (a
//! change to the cable, the MTU or the headroom starts the run again; the
//! toggles apply from the next tick), the narration and the books.

use super::config::{PfcConfig, CABLE, HEADROOM_KB, HORIZON, MTUS, TICK_NS, XOFF_BYTES, XON_BYTES};
use super::fabric::{Fabric, TickReport};
use super::headroom::Headroom;
use super::topology::{Node, FLOWS, HOT, VICTIM};
use crate::model::{Event, Figure, Model, Outcome, Refusal};
use crate::text::{decimal, plural};
use serde::{Deserialize, Serialize};

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Pfc {
    pub config: PfcConfig,
    pub fabric: Fabric,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum PfcAction {
    /// One tick (100 ns).
    Tick,
    /// Up to this many ticks.
    Run(u32),
    ToEnd,
    Restart,
    SetCable(u32),
    SetMtu(u32),
    SetHeadroom(u32),
    SetDcqcn(bool),
    SetLoop(bool),
    SetWatchdog(bool),
}

/// Kilobytes with one decimal, from bytes.
pub fn kb(bytes: u64) -> String {
    decimal(bytes as f64 / 1_000.0, 1)
}

/// A time in µs from ticks, with one decimal.
pub fn micros(ticks: u32) -> String {
    decimal(f64::from(ticks) * TICK_NS as f64 / 1_000.0, 1)
}

impl Pfc {
    pub fn tick(&self) -> u32 {
        self.fabric.tick
    }

    pub fn over(&self) -> bool {
        self.fabric.over()
    }

    pub fn headroom(&self) -> Headroom {
        Headroom::new(self.config.cable_m, self.config.mtu)
    }

    /// Whether the configured headroom covers the model's worst case.
    pub fn headroom_enough(&self) -> bool {
        self.config.headroom_bytes() >= self.headroom().model_bytes()
    }

    /// Bytes dropped by buffer overflow on the lossless priority.
    pub fn overflow(&self) -> u64 {
        self.fabric.flows.iter().map(|f| f.overflow).sum()
    }

    pub fn pause_frames(&self) -> u32 {
        self.fabric.ports.iter().map(|p| p.frames_sent).sum()
    }

    /// The deepest the hot receiver's queue has been in the second half of
    /// the run so far (after the start-up burst), bytes.
    pub fn settled_hot_queue(&self) -> u64 {
        let h = &self.fabric.history;
        h[h.len() / 2..]
            .iter()
            .map(|s| s.hot_queue)
            .max()
            .unwrap_or(0)
    }

    /// The victim's mean rate over the run so far, Gb/s.
    pub fn victim_mean_gbps(&self) -> f64 {
        let t = f64::from(self.tick().max(1)) * TICK_NS as f64;
        self.fabric.flows[VICTIM].delivered as f64 * 8.0 / t
    }

    fn port_name(&self, i: usize) -> String {
        self.fabric.ports[i].link.name()
    }

    fn narrate(&self, r: &TickReport) -> Event {
        let mut text = format!("Tick {} ({} µs): ", r.tick, micros(r.tick));
        let mut tone = 0; // 0 info, 1 warn, 2 fault
        let mut key = "fabric".to_string();
        let mut said = Vec::new();
        for &i in &r.xoff {
            let p = &self.fabric.ports[i];
            said.push(format!(
                "{} sends XOFF to {}: its counter for bytes from {} reached {} KB (XOFF is {} KB)",
                p.link.to.name(),
                p.link.from.name(),
                p.link.from.name(),
                kb(p.ingress),
                kb(XOFF_BYTES)
            ));
            key = p.link.key();
            tone = tone.max(1);
        }
        for &i in &r.xon {
            let p = &self.fabric.ports[i];
            said.push(format!(
                "{} sends XON to {}: its counter fell to {} KB, at or below XON ({} KB)",
                p.link.to.name(),
                p.link.from.name(),
                kb(p.ingress),
                kb(XON_BYTES)
            ));
        }
        if r.overflow > 0 {
            said.push(format!(
                "{} bytes overflow a full ingress buffer and are dropped on the lossless priority: the headroom ({} KB) is smaller than the {} KB still arriving after XOFF",
                r.overflow,
                self.config.headroom_kb,
                kb(self.headroom().model_bytes())
            ));
            tone = 2;
        }
        if r.expired > 0 {
            said.push(format!("{} looping bytes reach TTL 0 and die", r.expired));
        }
        for &i in &r.watchdog {
            said.push(format!(
                "the watchdog flushes {}'s queue, paused for {} µs",
                self.port_name(i),
                micros(super::fabric::WATCHDOG_TICKS)
            ));
            tone = tone.max(1);
        }
        for &f in &r.cnps {
            let rp = &self.fabric.flows[f].rp;
            said.push(format!(
                "a CNP reaches {}'s sender: RC {} → {} Gb/s, α {}",
                FLOWS[f].name,
                decimal(rp.rt, 1),
                decimal(rp.rc, 1),
                decimal(rp.alpha, 3)
            ));
        }
        if said.is_empty() {
            let paused = self.fabric.paused_count();
            said.push(if paused == 0 {
                format!(
                    "bytes move; no port is paused; the queue for H{HOT} holds {} KB",
                    kb(self.hot_queue())
                )
            } else {
                format!(
                    "{paused} link{} paused; the queue for H{HOT} holds {} KB",
                    if paused == 1 { " is" } else { "s are" },
                    kb(self.hot_queue())
                )
            });
        }
        text.push_str(&crate::text::capitalised(&said.join("; ")));
        text.push('.');
        let e = match tone {
            2 => Event::fault(text),
            1 => Event::warn(text),
            _ => Event::info(text),
        };
        e.at(key)
    }

    pub fn hot_queue(&self) -> u64 {
        let i = super::fabric::port_index(super::topology::Link {
            from: Node::Leaf(1),
            to: Node::Host(HOT),
        });
        self.fabric.ports[i].queued()
    }

    fn deadlock_event(&self) -> Option<Event> {
        let since = self.fabric.deadlock_since?;
        let names: Vec<String> = self
            .fabric
            .deadlock
            .iter()
            .map(|i| self.port_name(*i))
            .collect();
        Some(
            Event::fault(format!(
                "Deadlock since tick {since}: {} are paused in a cycle, each waiting for the next to drain first. Nothing on the loop moves again.",
                names.join(", ")
            ))
            .at("deadlock"),
        )
    }

    /// Why running `n` ticks would be refused, if it would.
    fn run_refusal(&self, n: u32) -> Option<Refusal> {
        if self.over() {
            Some(Refusal::new(format!(
                "The run is over at tick {HORIZON} (2 ms). Start again, or step back."
            )))
        } else if n == 0 {
            Some(Refusal::new("Run at least one tick."))
        } else {
            None
        }
    }

    fn run(&mut self, n: u32) -> Outcome {
        if let Some(refused) = self.run_refusal(n) {
            return Err(refused);
        }
        let n = n.min(HORIZON - self.tick());
        let had_deadlock = self.fabric.deadlock_since.is_some();
        let mut events = Vec::new();
        if n == 1 {
            let r = self.fabric.step(&self.config);
            events.push(self.narrate(&r));
        } else {
            let from = self.tick();
            let frames = self.pause_frames();
            let drops = self.overflow();
            let mut cnps = 0;
            for _ in 0..n {
                cnps += self.fabric.step(&self.config).cnps.len();
            }
            let paused = self.fabric.paused_count();
            let lost = self.overflow() - drops;
            let text = format!(
                "Ticks {from} to {} ({} to {} µs): {} PFC frame{} sent, {cnps} CNP{}; {paused} link{} paused now; the queue for H{HOT} holds {} KB; V runs at {} Gb/s{}.",
                self.tick() - 1,
                micros(from),
                micros(self.tick()),
                self.pause_frames() - frames,
                plural((self.pause_frames() - frames) as usize),
                plural(cnps),
                plural(paused as usize),
                kb(self.hot_queue()),
                decimal(self.fabric.flows[VICTIM].gbps(), 1),
                if lost > 0 {
                    format!("; {lost} bytes dropped on the lossless priority")
                } else {
                    String::new()
                }
            );
            events.push(
                if lost > 0 {
                    Event::fault(text)
                } else if paused > 0 {
                    Event::warn(text)
                } else {
                    Event::info(text)
                }
                .at("fabric"),
            );
        }
        if !had_deadlock {
            events.extend(self.deadlock_event());
        }
        Ok(events)
    }

    fn restart(&mut self) -> Outcome {
        if self.tick() == 0 {
            return Err(Refusal::new("The run is at tick 0 already."));
        }
        self.fabric = Fabric::new(&self.config);
        Ok(vec![Event::info(
            "Back to tick 0: empty buffers, every sender at line rate, the settings as they are now.",
        )
        .at("fabric")])
    }

    /// A setting the wires and thresholds are built from: the run restarts.
    fn rebuild(&mut self, next: PfcConfig, said: String) -> Outcome {
        next.validate().map_err(Refusal::new)?;
        self.config = next;
        self.fabric = Fabric::new(&self.config);
        let h = self.headroom();
        let verdict = if self.headroom_enough() {
            "enough"
        } else {
            "too little: a lossless port can overflow"
        };
        Ok(vec![Event::info(format!(
            "{said} The worst case after XOFF is {} KB ({} KB in the model's whole ticks); {} KB of headroom is {verdict}. The run starts again.",
            kb(h.bytes()),
            kb(h.model_bytes()),
            self.config.headroom_kb
        ))
        .at("headroom")])
    }

    fn toggle(&mut self, action: PfcAction) -> Outcome {
        let c = &mut self.config;
        let (slot, on, name, what, key) = match action {
            PfcAction::SetDcqcn(on) => (
                &mut c.dcqcn,
                on,
                "ECN with DCQCN",
                "switches mark ECN above Kmin, receivers send CNPs, senders cut their rate",
                "flows",
            ),
            PfcAction::SetLoop(on) => (
                &mut c.loop_route,
                on,
                "routing loop",
                "L1 and S1 send H5's traffic round L0 → S0 → L1 → S1 → L0",
                "deadlock",
            ),
            PfcAction::SetWatchdog(on) => (
                &mut c.watchdog,
                on,
                "PFC watchdog",
                "a queue paused with bytes waiting for 200 µs is flushed, and its bytes dropped for 200 µs more",
                "fabric",
            ),
            _ => return Err(Refusal::new("Not a toggle.")),
        };
        if *slot == on {
            return Err(Refusal::new(format!(
                "The {name} is {} already.",
                if on { "on" } else { "off" }
            )));
        }
        *slot = on;
        let text = if on {
            format!("The {name} is on from tick {}: {what}.", self.fabric.tick)
        } else {
            format!("The {name} is off from tick {}.", self.fabric.tick)
        };
        Ok(vec![Event::info(text).at(key)])
    }
}

impl Model for Pfc {
    type Config = PfcConfig;
    type Action = PfcAction;

    fn validate(c: &PfcConfig) -> Result<(), String> {
        c.validate()
    }

    fn new(c: &PfcConfig) -> Self {
        Pfc {
            config: c.clone(),
            fabric: Fabric::new(c),
        }
    }

    fn intro(&self) -> Event {
        Event::info(format!(
            "Six hosts, two leaves, two spines, 100 Gb/s links of {} m, one lossless priority. A, B and C all send to H{HOT}; V sends from H2 to the idle H5 over the same spine. A switch pauses the link feeding a port once that port's bytes reach {} KB. Step runs 100 ns.",
            self.config.cable_m,
            kb(XOFF_BYTES)
        ))
    }

    fn apply(&mut self, action: &PfcAction) -> Outcome {
        use PfcAction as A;
        let mut next = self.config.clone();
        match *action {
            A::Tick => self.run(1),
            A::Run(n) => self.run(n),
            A::ToEnd => self.run(HORIZON),
            A::Restart => self.restart(),
            A::SetCable(m) => {
                let m = CABLE.admit(m)?;
                if m == next.cable_m {
                    return Err(Refusal::new(format!("The cables are {m} m already.")));
                }
                next.cable_m = m;
                self.rebuild(next, format!("Every cable is {m} m now."))
            }
            A::SetMtu(m) => {
                if !MTUS.contains(&m) {
                    return Err(Refusal::new(format!(
                        "The MTU is 1500, 4096 or 9216 bytes; {m} is not offered."
                    )));
                }
                if m == next.mtu {
                    return Err(Refusal::new(format!("The MTU is {m} bytes already.")));
                }
                next.mtu = m;
                self.rebuild(next, format!("The MTU is {m} bytes now."))
            }
            A::SetHeadroom(k) => {
                let k = HEADROOM_KB.admit(k)?;
                if k == next.headroom_kb {
                    return Err(Refusal::new(format!("The headroom is {k} KB already.")));
                }
                next.headroom_kb = k;
                self.rebuild(
                    next,
                    format!("Each ingress port keeps {k} KB above XOFF now."),
                )
            }
            A::SetDcqcn(_) | A::SetLoop(_) | A::SetWatchdog(_) => self.toggle(*action),
        }
    }

    /// Running is answered directly: trying "Run to 2 ms" on a copy, as
    /// the default does on every frame to grey out the buttons, ran the
    /// whole rest of the run (about 130 ms a Step in the browser).
    fn refusal(&self, action: &PfcAction) -> Option<Refusal> {
        match *action {
            PfcAction::Tick => self.run_refusal(1),
            PfcAction::Run(n) => self.run_refusal(n),
            PfcAction::ToEnd => self.run_refusal(HORIZON),
            _ => crate::model::trial_refusal(self, action),
        }
    }

    fn next_auto(&self) -> Result<PfcAction, Refusal> {
        if self.over() {
            Err(Refusal::new(format!("The run is over at tick {HORIZON}.")))
        } else {
            Ok(PfcAction::Tick)
        }
    }

    fn check(&self) -> Result<(), String> {
        self.config.validate()?;
        let f = &self.fabric;
        if f.tick > HORIZON {
            return Err("the run went past its end".into());
        }
        // Every byte sent is delivered, held in the fabric or dropped.
        for (i, flow) in f.flows.iter().enumerate() {
            let held = f.held(i as u8);
            if flow.sent != flow.delivered + held + flow.dropped() {
                return Err(format!(
                    "flow {}: {} sent but {} delivered, {held} held, {} dropped",
                    FLOWS[i].name,
                    flow.sent,
                    flow.delivered,
                    flow.dropped()
                ));
            }
        }
        // Each ingress counter is the bytes queued that came in on it.
        for (i, p) in f.ports.iter().enumerate() {
            let counted: u64 = f
                .ports
                .iter()
                .flat_map(|q| q.queue.iter())
                .filter(|ch| usize::from(ch.ingress) == i && p.link.to.is_switch())
                .map(|ch| ch.bytes)
                .sum();
            if p.link.to.is_switch() && counted != p.ingress {
                return Err(format!(
                    "{}: counter {} but {counted} queued",
                    p.link.name(),
                    p.ingress
                ));
            }
            if p.ingress > self.config.limit_bytes() {
                return Err(format!(
                    "{} holds more than XOFF plus headroom",
                    p.link.name()
                ));
            }
        }
        // With headroom for the worst case (and no watchdog), nothing drops.
        if self.headroom_enough() && !self.config.watchdog && self.overflow() > 0 {
            return Err(
                "a lossless port dropped bytes although its headroom covers the worst case".into(),
            );
        }
        if f.history.len() != (f.tick / super::config::SAMPLE_TICKS) as usize {
            return Err("the history does not have one sample a microsecond".into());
        }
        Ok(())
    }

    fn status(&self) -> Vec<Figure> {
        let f = &self.fabric;
        let state = if f.deadlock_since.is_some() {
            "deadlock".to_string()
        } else if self.overflow() > 0 {
            "dropping".to_string()
        } else if f.paused_count() > 0 {
            "paused".to_string()
        } else {
            "flowing".to_string()
        };
        vec![
            Figure::new("time", "time", format!("{} µs", micros(f.tick))),
            Figure::new("state", "state", state),
            Figure::new("paused", "links paused", f.paused_count()),
            Figure::new("frames", "PFC frames", self.pause_frames()),
            Figure::new(
                "hot-queue",
                "queue for H3",
                format!("{} KB", kb(self.hot_queue())),
            ),
            Figure::new(
                "victim",
                "V's rate",
                format!("{} Gb/s", decimal(f.flows[VICTIM].gbps(), 1)),
            ),
            Figure::new("drops", "bytes dropped", self.overflow()),
        ]
    }

    fn why(&self) -> Vec<String> {
        let h = self.headroom();
        let c = &self.config;
        let mut out = vec![format!(
            "After a switch decides to pause, bytes keep coming: its own frame in progress, the pause frame, {} m of cable and the interfaces twice (there and back), the sender's response time and the sender's last frame. At 100 Gb/s that is {} KB (the model, in whole 100 ns ticks, needs {} KB); this fabric keeps {} KB.",
            c.cable_m,
            kb(h.bytes()),
            kb(h.model_bytes()),
            c.headroom_kb
        )];
        let paused_hosts = self.fabric.paused_hosts();
        if paused_hosts.contains(&FLOWS[VICTIM].src) {
            out.push(format!(
                "H2 is paused although it sends only to H5, which is idle: the pause for H{HOT}'s incast has spread up the tree to every host behind the same links."
            ));
        }
        out.push(format!(
            "V has averaged {} Gb/s so far; it shares only links with the incast, never its receiver.",
            decimal(self.victim_mean_gbps(), 1)
        ));
        if c.dcqcn {
            let rates: Vec<String> = self
                .fabric
                .flows
                .iter()
                .zip(FLOWS.iter())
                .map(|(f, s)| format!("{} {}", s.name, decimal(f.rp.rc, 1)))
                .collect();
            out.push(format!(
                "DCQCN holds the senders at {} Gb/s, so the queue for H{HOT} stays near Kmin instead of reaching XOFF.",
                rates.join(", ")
            ));
        }
        if self.fabric.deadlock_since.is_some() {
            out.push("Every buffer on the loop is above XON and waits for the next one; only dropping bytes (the watchdog) can break the cycle.".to_string());
        }
        out
    }

    fn leaves_out() -> &'static str {
        "Leaves out: frames (bytes move as a fluid in 100 ns ticks, and every delay is rounded up to whole ticks), a lossy priority beside the lossless one, shared buffer pools and dynamic thresholds, ECMP (each destination has one path), the link-level retransmission and go-back-N of RoCE, and random ECN marking (the model marks deterministically at the same average rate). CNPs travel on a priority PFC never pauses and never queue. XOFF, XON, Kmin, Kmax, Pmax and the watchdog's timers are our choices, labelled parameters; DCQCN's gains and timers follow htsim's implementation."
    }
}
