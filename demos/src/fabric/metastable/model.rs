//! The `/fabric/metastable` model: a run of the server tick by tick, the
//! settings and fixes (each takes effect from the next tick), and the sweep
//! of goodput against load.

use super::budget::TokenBucket;
use super::config::{
    MetastableConfig, TriggerKind, CAPACITY, HORIZON, RATE, RETRIES, TAIL, TIMEOUT, TRIGGER_LENGTH,
};
use super::server::{Server, TickRecord};
use super::sweep::{sweep, Sweep};
use crate::memo::Memo;
use crate::model::{Event, Figure, Model, Outcome, Refusal};
use crate::text::{decimal, plural};
use serde::{Deserialize, Serialize};

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Metastable {
    pub config: MetastableConfig,
    pub server: Server,
    #[serde(skip)]
    memo: Memo<MetastableConfig, Sweep>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum MetastableAction {
    /// One tick.
    Tick,
    /// Up to this many ticks (stopping at the end of the run).
    Run(u32),
    /// Every tick left.
    ToEnd,
    /// Back to tick 0 with the settings as they are now.
    Restart,
    SetRate(u32),
    SetCapacity(u32),
    SetTimeout(u32),
    SetRetries(u8),
    SetTriggerKind(TriggerKind),
    SetTriggerLength(u32),
    SetBudget(bool),
    SetBackoff(bool),
    SetLifo(bool),
    SetDeadline(bool),
    SetShed(bool),
}

/// Where the run is, against the trigger.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    Before,
    During,
    /// After the trigger; recovered from this tick on, if it has.
    After(Option<u32>),
}

fn per_tick(x: f64) -> String {
    decimal(x, 1)
}

impl Metastable {
    pub fn history(&self) -> &[TickRecord] {
        &self.server.history
    }

    pub fn last(&self) -> Option<&TickRecord> {
        self.server.history.last()
    }

    pub fn tick(&self) -> u32 {
        self.server.tick
    }

    pub fn over(&self) -> bool {
        self.server.tick >= HORIZON
    }

    /// Queued requests, and of them those whose client has given up.
    pub fn queued(&self) -> (usize, usize) {
        (
            self.server.queue.len(),
            self.server.dead_at(self.server.tick),
        )
    }

    /// The first tick after the trigger from which, up to now, no client
    /// timed out and no dead request was queued; `None` if there is none.
    pub fn recovered_at(&self) -> Option<u32> {
        let end = self.config.trigger.end();
        if self.tick() <= end {
            return None;
        }
        let trouble = |r: &TickRecord| r.timed_out > 0 || r.dead > 0;
        let last_bad = self
            .history()
            .iter()
            .rev()
            .take_while(|r| r.tick >= end)
            .find(|r| trouble(r))
            .map(|r| r.tick);
        match last_bad {
            None => Some(end),
            Some(t) if t + 1 < self.tick() => Some(t + 1),
            Some(_) => None,
        }
    }

    /// The first tick after the trigger from which, up to now, the queue
    /// was empty at the end of every tick; `None` if there is none.
    pub fn drained_at(&self) -> Option<u32> {
        let end = self.config.trigger.end();
        let last_busy = self
            .history()
            .iter()
            .rev()
            .take_while(|r| r.tick >= end)
            .find(|r| r.queue > 0)
            .map_or(end, |r| r.tick + 1);
        (last_busy < self.tick()).then_some(last_busy)
    }

    pub fn phase(&self) -> Phase {
        let t = self.tick();
        let trig = &self.config.trigger;
        if t <= trig.start {
            Phase::Before
        } else if t <= trig.end() {
            Phase::During
        } else {
            Phase::After(self.recovered_at())
        }
    }

    /// Goodput a tick over the last `TAIL` ticks run (or all, if fewer).
    pub fn recent_goodput(&self) -> f64 {
        let t = self.tick();
        self.server.goodput(t.saturating_sub(TAIL), t)
    }

    /// Goodput against load, from the model's own runs; kept so a redraw
    /// does not run it again. The rate is swept, so it is not in the key.
    pub fn sweep(&self) -> Sweep {
        let mut key = self.config.clone();
        key.rate = 0;
        self.memo.get(&key, || sweep(&self.config))
    }

    /// Attempts a new request can cost: its first and every retry.
    pub fn attempts(&self) -> u32 {
        u32::from(self.config.retries) + 1
    }

    fn narrate(&self, r: &TickRecord) -> Event {
        let c = &self.config;
        let mut text = format!("Tick {}", r.tick);
        if c.trigger.active(r.tick) {
            text.push_str(match c.trigger.kind {
                TriggerKind::Slowdown => " (slowdown)",
                TriggerKind::Burst => " (burst)",
            });
        }
        text.push_str(&format!(
            ": {} new request{} and {} retr{} arrive",
            r.new,
            plural(r.new as usize),
            r.retried,
            if r.retried == 1 { "y" } else { "ies" }
        ));
        if r.refused > 0 {
            text.push_str(&format!(
                ", {} refused ({})",
                r.refused,
                if r.shed == r.refused {
                    "shed"
                } else {
                    "the queue is full"
                }
            ));
        }
        text.push_str(&format!(
            ". The server completes {} of its {}: {} in time",
            r.good + r.wasted,
            r.capacity,
            r.good
        ));
        if r.wasted > 0 {
            text.push_str(&format!(", {} for clients that had given up", r.wasted));
        }
        if r.discarded > 0 {
            text.push_str(&format!(
                "; it throws away {} dead request{}",
                r.discarded,
                plural(r.discarded as usize)
            ));
        }
        text.push('.');
        if r.timed_out > 0 {
            text.push_str(&format!(
                " {} client{} time{} out.",
                r.timed_out,
                plural(r.timed_out as usize),
                if r.timed_out == 1 { "s" } else { "" }
            ));
        }
        if r.throttled > 0 {
            text.push_str(&format!(
                " The retry budget stops {} retr{}.",
                r.throttled,
                if r.throttled == 1 { "y" } else { "ies" }
            ));
        }
        text.push_str(&format!(" Queue: {}, {} dead.", r.queue, r.dead));
        let event = if r.good == 0 && (r.wasted > 0 || r.timed_out > 0) {
            Event::fault(text)
        } else if r.wasted > 0 || r.timed_out > 0 || r.refused > 0 {
            Event::warn(text)
        } else {
            Event::done(text)
        };
        event.at("queue")
    }

    /// What changed between phases, said once when it happens.
    fn milestones(&self, before: Phase) -> Vec<Event> {
        let now = self.phase();
        let c = &self.config;
        let mut out = Vec::new();
        if before == Phase::Before && now != Phase::Before && c.trigger.length > 0 {
            out.push(
                Event::warn(match c.trigger.kind {
                    TriggerKind::Slowdown => format!(
                        "The trigger: for {} ticks the server completes only {} requests a tick.",
                        c.trigger.length, c.trigger.slow_capacity
                    ),
                    TriggerKind::Burst => format!(
                        "The trigger: for {} ticks, {} extra requests arrive each tick.",
                        c.trigger.length, c.trigger.burst
                    ),
                })
                .at("trigger"),
            );
        }
        if !matches!(before, Phase::After(_)) && matches!(now, Phase::After(_)) {
            // The queue as the trigger's last tick left it, even when a
            // longer run went past it.
            let last = c.trigger.end().checked_sub(1);
            let (q, dead) = last
                .and_then(|t| self.history().get(t as usize))
                .map_or((0, 0), |r| (r.queue, r.dead));
            out.push(
                Event::info(format!(
                    "The trigger is over: capacity {} and {} new requests a tick again. It left {q} requests queued, {dead} of them dead.",
                    c.capacity, c.rate
                ))
                .at("trigger"),
            );
        }
        if let (Phase::After(None), Phase::After(Some(t))) = (before, now) {
            out.push(
                Event::done(format!(
                    "Recovered: since tick {t} no client has timed out and no dead request waits."
                ))
                .at("goodput-chart"),
            );
        }
        if self.over() {
            out.push(self.end_event());
        }
        out
    }

    fn end_event(&self) -> Event {
        let g = self.recent_goodput();
        match self.recovered_at() {
            Some(t) => Event::done(format!(
                "The run is over. It recovered at tick {t}; goodput over the last {TAIL} ticks is {} a tick, for {} new requests a tick.",
                per_tick(g),
                self.config.rate
            )),
            None => Event::fault(format!(
                "The run is over and the server never recovered: goodput over the last {TAIL} ticks is {} a tick, for {} new requests a tick, although the trigger ended at tick {}. Retries and dead work keep it overloaded.",
                per_tick(g),
                self.config.rate,
                self.config.trigger.end()
            )),
        }
        .at("goodput-chart")
    }

    fn over_refusal() -> Refusal {
        Refusal::new(format!(
            "The run is over at tick {HORIZON}. Start again, or step back."
        ))
    }

    fn run(&mut self, n: u32) -> Outcome {
        if self.over() {
            return Err(Self::over_refusal());
        }
        if n == 0 {
            return Err(Refusal::new("Run at least one tick."));
        }
        let before = self.phase();
        let n = n.min(HORIZON - self.tick());
        let mut events = Vec::new();
        if n == 1 {
            let r = self.server.step(&self.config);
            events.push(self.narrate(&r));
        } else {
            let from = self.tick();
            for _ in 0..n {
                self.server.step(&self.config);
            }
            let ticks = &self.history()[from as usize..];
            let sum =
                |f: fn(&TickRecord) -> u32| ticks.iter().map(|r| u64::from(f(r))).sum::<u64>();
            let (q, dead) = self.queued();
            events.push(
                Event::info(format!(
                    "Ticks {from} to {}: {} new requests, {} retries; {} served in time, {} wasted; {} timeouts. Queue: {q}, {dead} dead.",
                    self.tick() - 1,
                    sum(|r| r.new),
                    sum(|r| r.retried),
                    sum(|r| r.good),
                    sum(|r| r.wasted),
                    sum(|r| r.timed_out)
                ))
                .at("queue"),
            );
        }
        events.extend(self.milestones(before));
        Ok(events)
    }

    fn restart(&mut self) -> Outcome {
        if self.tick() == 0 {
            return Err(Refusal::new("The run is at tick 0 already."));
        }
        self.server = Server::new(self.config.seed);
        Ok(vec![Event::info(
            "Back to tick 0 with an empty queue and the settings as they are now.",
        )
        .at("queue")])
    }

    fn same(what: &str, value: impl std::fmt::Display) -> Refusal {
        Refusal::new(format!("The {what} is already {value}."))
    }

    fn set(&mut self, next: MetastableConfig, said: String, key: &str) -> Outcome {
        next.validate().map_err(Refusal::new)?;
        self.config = next;
        let from = if self.tick() == 0 {
            "The run starts with it.".to_string()
        } else {
            format!("It applies from tick {} on.", self.tick())
        };
        Ok(vec![Event::info(format!("{said} {from}")).at(key)])
    }

    fn set_number(&mut self, action: MetastableAction) -> Outcome {
        let mut next = self.config.clone();
        let said = match action {
            MetastableAction::SetRate(v) => {
                let v = RATE.admit(v)?;
                if v == next.rate {
                    return Err(Self::same("clients' rate", format!("{v} a tick")));
                }
                next.rate = v;
                format!("The clients send {v} new requests a tick now.")
            }
            MetastableAction::SetCapacity(v) => {
                let v = CAPACITY.admit(v)?;
                if v == next.capacity {
                    return Err(Self::same("server's capacity", format!("{v} a tick")));
                }
                next.capacity = v;
                next.trigger.slow_capacity = next.trigger.slow_capacity.min(v);
                format!("The server completes {v} requests a tick now.")
            }
            MetastableAction::SetTimeout(v) => {
                let v = TIMEOUT.admit(v)?;
                if v == next.timeout {
                    return Err(Self::same("timeout", format!("{v} ticks")));
                }
                next.timeout = v;
                format!("A client now gives up after {v} ticks (requests already sent keep their deadline).")
            }
            MetastableAction::SetRetries(v) => {
                let v = RETRIES.admit(v)?;
                if v == next.retries {
                    return Err(Self::same("number of retries", v));
                }
                next.retries = v;
                format!(
                    "A client now retries a failed request up to {v} time{}: up to {} attempts a request.",
                    plural(v as usize),
                    v + 1
                )
            }
            MetastableAction::SetTriggerLength(v) => {
                let v = TRIGGER_LENGTH.admit(v)?;
                if v == next.trigger.length {
                    return Err(Self::same("trigger's length", format!("{v} ticks")));
                }
                next.trigger.length = v;
                format!(
                    "The trigger lasts {v} tick{} from tick {}.",
                    plural(v as usize),
                    next.trigger.start
                )
            }
            MetastableAction::SetTriggerKind(k) => {
                if k == next.trigger.kind {
                    return Err(Refusal::new("That is the trigger already."));
                }
                next.trigger.kind = k;
                match k {
                    TriggerKind::Slowdown => format!(
                        "The trigger is a slowdown: capacity {} a tick while it lasts.",
                        next.trigger.slow_capacity
                    ),
                    TriggerKind::Burst => format!(
                        "The trigger is a burst: {} extra requests a tick while it lasts.",
                        next.trigger.burst
                    ),
                }
            }
            _ => return Err(Refusal::new("Not a setting.")),
        };
        let key = match action {
            MetastableAction::SetTriggerLength(_) | MetastableAction::SetTriggerKind(_) => {
                "trigger"
            }
            _ => "queue",
        };
        self.set(next, said, key)
    }

    fn set_fix(&mut self, action: MetastableAction) -> Outcome {
        let mut next = self.config.clone();
        let f = &mut next.fixes;
        let (slot, on, name, what) = match action {
            MetastableAction::SetBudget(on) => (
                &mut f.budget,
                on,
                "retry budget",
                "a failure costs a token, a success earns a tenth of one, and no client retries while 5 or fewer of 10 tokens are left (gRPC's retry throttling)",
            ),
            MetastableAction::SetBackoff(on) => (
                &mut f.backoff,
                on,
                "backoff",
                "retry n waits a random 0 to min(4 · 2^(n−1), 32) ticks (full jitter)",
            ),
            MetastableAction::SetLifo(on) => (
                &mut f.lifo,
                on,
                "LIFO service",
                "the server takes the newest request first",
            ),
            MetastableAction::SetDeadline(on) => (
                &mut f.deadline,
                on,
                "deadline check",
                "the server throws away a request whose client has given up, without serving it",
            ),
            MetastableAction::SetShed(on) => (
                &mut f.shed,
                on,
                "load shedding",
                "the server refuses new requests while its queue holds the threshold or more",
            ),
            _ => return Err(Refusal::new("Not a fix.")),
        };
        if *slot == on {
            return Err(Refusal::new(format!(
                "The {name} is {} already.",
                if on { "on" } else { "off" }
            )));
        }
        *slot = on;
        let said = if on {
            format!("The {name} is on: {what}.")
        } else {
            format!("The {name} is off.")
        };
        let events = self.set(next, said, "fixes")?;
        if matches!(action, MetastableAction::SetBudget(true)) {
            // A6: token_count "is initially set to maxTokens".
            self.server.bucket = TokenBucket::default();
        }
        Ok(events)
    }
}

impl Model for Metastable {
    type Config = MetastableConfig;
    type Action = MetastableAction;

    fn validate(c: &MetastableConfig) -> Result<(), String> {
        c.validate()
    }

    fn new(c: &MetastableConfig) -> Self {
        Metastable {
            config: c.clone(),
            server: Server::new(c.seed),
            memo: Memo::default(),
        }
    }

    fn intro(&self) -> Event {
        let c = &self.config;
        Event::info(format!(
            "Clients send {} new requests a tick to a server that completes {} a tick. A client gives up after {} ticks and retries up to {} time{}. At tick {} a trigger strikes for {} ticks. Step to run one tick.",
            c.rate,
            c.capacity,
            c.timeout,
            c.retries,
            plural(c.retries as usize),
            c.trigger.start,
            c.trigger.length
        ))
    }

    fn apply(&mut self, action: &MetastableAction) -> Outcome {
        use MetastableAction as A;
        match *action {
            A::Tick => self.run(1),
            A::Run(n) => self.run(n),
            A::ToEnd => self.run(HORIZON),
            A::Restart => self.restart(),
            A::SetBudget(_)
            | A::SetBackoff(_)
            | A::SetLifo(_)
            | A::SetDeadline(_)
            | A::SetShed(_) => self.set_fix(*action),
            _ => self.set_number(*action),
        }
    }

    fn next_auto(&self) -> Result<MetastableAction, Refusal> {
        if self.over() {
            Err(Self::over_refusal())
        } else {
            Ok(MetastableAction::Tick)
        }
    }

    fn check(&self) -> Result<(), String> {
        self.config.validate()?;
        let s = &self.server;
        if s.tick > HORIZON || s.history.len() != s.tick as usize {
            return Err("the history does not have one record a tick".into());
        }
        if s.queue
            .iter()
            .zip(s.queue.iter().skip(1))
            .any(|(a, b)| a.sent > b.sent)
        {
            return Err("the queue is not in the order requests were sent".into());
        }
        if s.queue
            .iter()
            .any(|r| r.sent >= s.tick || r.attempt > RETRIES.max)
        {
            return Err("a queued request was sent in the future or retried too often".into());
        }
        if s.pending.iter().any(|p| p.due < s.tick) {
            return Err("a retry was due in the past and not sent".into());
        }
        if s.bucket.milli > TokenBucket::max_milli() {
            return Err("the budget holds more than its maximum".into());
        }
        let h = &s.history;
        let sum = |f: fn(&TickRecord) -> u32| h.iter().map(|r| u64::from(f(r))).sum::<u64>();
        // Every request sent is refused, served, thrown away or still queued.
        let sent = sum(|r| r.new) + sum(|r| r.retried);
        let accounted = sum(|r| r.refused)
            + sum(|r| r.good)
            + sum(|r| r.wasted)
            + sum(|r| r.discarded)
            + s.queue.len() as u64;
        if sent != accounted {
            return Err(format!(
                "{sent} requests sent but {accounted} accounted for"
            ));
        }
        // Every failure is retried (sent or pending) or given up.
        let failures = sum(|r| r.refused) + sum(|r| r.timed_out);
        let handled = sum(|r| r.retried) + s.pending.len() as u64 + sum(|r| r.given_up);
        if failures != handled {
            return Err(format!(
                "{failures} failures but {handled} retried or given up"
            ));
        }
        if h.iter()
            .any(|r| r.good + r.wasted > r.capacity || r.dead > r.queue)
        {
            return Err("a tick served more than its capacity".into());
        }
        if let Some(r) = h.last() {
            if r.queue as usize != s.queue.len() {
                return Err("the last record's queue is not the queue".into());
            }
        }
        Ok(())
    }

    fn status(&self) -> Vec<Figure> {
        let (q, dead) = self.queued();
        let last = self.last().cloned().unwrap_or_default();
        let state = match self.phase() {
            Phase::Before => "before the trigger".to_string(),
            Phase::During => "trigger".to_string(),
            Phase::After(Some(t)) => format!("recovered at tick {t}"),
            Phase::After(None) => "overloaded".to_string(),
        };
        let mut out = vec![
            Figure::new("tick", "tick", format!("{}/{HORIZON}", self.tick())),
            Figure::new("state", "state", state),
            Figure::new("queued", "queued (dead)", format!("{q} ({dead})")),
            Figure::new("goodput", "goodput this tick", last.good),
            Figure::new("offered", "offered this tick", last.offered()),
            Figure::new(
                "recent",
                "goodput a tick, last 50",
                per_tick(self.recent_goodput()),
            ),
        ];
        if self.config.fixes.budget {
            out.push(Figure::new(
                "tokens",
                "retry tokens",
                decimal(f64::from(self.server.bucket.milli) / 1_000.0, 1),
            ));
        }
        out
    }

    fn why(&self) -> Vec<String> {
        let c = &self.config;
        let busy = f64::from(c.rate) * 100.0 / f64::from(c.capacity);
        let worst = c.rate.saturating_mul(self.attempts());
        let mut out = vec![
            format!(
                "The clients send {} new requests a tick to a server that completes {}: it is busy {} % of the time and, from an empty queue, keeps up.",
                c.rate,
                c.capacity,
                decimal(busy, 0)
            ),
            format!(
                "Once requests wait longer than the {}-tick timeout, every new request costs up to {} attempts: {} a tick against a capacity of {}. {}",
                c.timeout,
                self.attempts(),
                worst,
                c.capacity,
                if worst > c.capacity {
                    "The queue cannot drain, so the overload sustains itself after the trigger: that is the sustaining effect."
                } else {
                    "Even then the server keeps up, so the queue drains."
                }
            ),
        ];
        let sw = self.sweep();
        let band = sw.bistable();
        out.push(match (band.first(), band.last()) {
            (Some(lo), Some(hi)) => format!(
                "From the model's own runs: at {lo} to {hi} new requests a tick the server settles in one of two states. From an empty queue it serves them all; after the trigger its goodput stays near {} a tick. That band is the vulnerable state.",
                per_tick(
                    sw.points
                        .iter()
                        .filter(|p| band.contains(&p.rate))
                        .map(|p| p.after)
                        .fold(f64::INFINITY, f64::min)
                )
            ),
            _ => "From the model's own runs: at every load the run after the trigger settles where the run from an empty queue does. With these settings there is one stable state.".to_string(),
        });
        if let Some(r) = self.last() {
            if r.wasted > 0 {
                out.push(format!(
                    "At tick {} the server spent {} of its {} completions on requests whose clients had already given up.",
                    r.tick, r.wasted, r.capacity
                ));
            }
        }
        out
    }

    fn leaves_out() -> &'static str {
        "Leaves out: many servers and load balancing, clients that stop sending when their requests fail (a closed loop), hedged requests and circuit breakers, retries at several layers, and the cost of refusing a request (here free). A full queue refuses at once, as shedding does; a real drop may be silent and cost the client a whole timeout. All clients share one retry budget, as one gRPC channel's do. Time is whole ticks and every number is our choice, a labelled parameter."
    }
}
