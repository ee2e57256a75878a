//! The journey as a demo: Step walks the message one stage on, toggles
//! change the path through the stage models' own rules, every line
//! narrated from the numbers.

use super::setup::{receive_model, send_model};
use super::{Fault, Journey, JourneyAction, JourneyConfig, Setup, Technique, MESSAGE};
use crate::host::pcie::Pcie;
use crate::model::{Event, Figure, Model, Outcome, Refusal, Tone};
use crate::net::encapsulation::MSS;
use crate::net::incast::Incast;
use crate::nic::busy_poll::{BusyPollAction, BUSY, PMD};
use crate::nic::coalescing::Coalescing;
use crate::nic::cut_through::{CutThrough, CHUNKS, WIRE_RATES};
use crate::nic::send_path::{BYPASS, CONTENDED, CTPIO, STOPPED};
use crate::nic::stages::StageAction;
use crate::text::{capitalised, ns, plural, tenths};

impl Setup {
    pub fn uses(&self, t: Technique) -> bool {
        match t {
            Technique::BusyPoll => self.busy_poll,
            Technique::Bypass => self.bypass,
            Technique::Ctpio => self.ctpio,
            Technique::Moderation => self.moderation,
            Technique::ZeroCopy => self.zero_copy,
            Technique::Rdma => self.rdma,
            Technique::LoadedSwitch => self.loaded_switch,
            Technique::CutThroughSwitch => self.cut_through_switch,
        }
    }

    pub fn breaks(&self, f: Fault) -> bool {
        match f {
            Fault::FullRing => self.full_ring,
            Fault::BusyQdisc => self.busy_qdisc,
            Fault::Drop => self.drop,
        }
    }
}

fn use_(technique: usize, on: bool) -> StageAction {
    StageAction::Use { technique, on }
}

/// The warnings a stage model gave while it applied its own rules (which
/// technique it turned on or off, and why).
fn warnings(outcome: Outcome) -> Vec<Event> {
    outcome
        .unwrap_or_default()
        .into_iter()
        .filter(|e| e.tone == Tone::Warn)
        .collect()
}

/// The refusal of a line rate the cut-through demo does not offer.
fn line_rates_text(gbps: u32) -> String {
    let rates: Vec<String> = WIRE_RATES.iter().map(u32::to_string).collect();
    format!(
        "The line runs at {} Gb/s (the cut-through demo's rates), not {gbps}.",
        rates.join(", ")
    )
}

const ON_RDMA: &str =
    "RDMA WRITE is on: the message takes the RDMA NIC's path, with no socket or TCP stack. Switch RDMA off first.";

impl Journey {
    fn on_path_count(&self) -> usize {
        self.path().on_path().count()
    }

    /// Sets kernel bypass on the receive side to match the send side, by the
    /// busy-poll model's rule (a poll-mode driver excludes busy polling).
    fn match_receive(before: &Setup, next: &mut Setup, notes: &mut Vec<Event>) {
        if next.bypass != before.bypass {
            let mut rx = receive_model(before);
            notes.extend(warnings(
                rx.apply(&BusyPollAction::Stage(use_(PMD, next.bypass))),
            ));
            next.busy_poll = rx.pipe.uses(BUSY);
        }
        if next.bypass && next.zero_copy {
            next.zero_copy = false;
            notes.push(Event::warn(
                "Zero-copy receive is a kernel socket's; with a poll-mode driver the application already reads the buffers the NIC wrote, so it turns off.",
            ));
        }
    }

    /// Sets kernel bypass on the send side to match the receive side, by
    /// the send-path model's rule (CTPIO needs bypass).
    fn match_send(before: &Setup, next: &mut Setup, notes: &mut Vec<Event>) {
        if next.bypass != before.bypass {
            let mut tx = send_model(before);
            notes.extend(warnings(tx.apply(&use_(BYPASS, next.bypass))));
            next.ctpio = tx.pipe.uses(CTPIO);
        }
    }

    fn changed(&self, t: Technique, on: bool) -> Result<(Setup, Vec<Event>), Refusal> {
        let before = self.setup;
        let mut next = before;
        let mut notes = Vec::new();
        let sockets = matches!(
            t,
            Technique::BusyPoll | Technique::Bypass | Technique::Ctpio | Technique::ZeroCopy
        );
        if before.rdma && sockets && on {
            return Err(Refusal::new(ON_RDMA));
        }
        match t {
            Technique::Moderation => next.moderation = on,
            Technique::LoadedSwitch => next.loaded_switch = on,
            Technique::CutThroughSwitch => next.cut_through_switch = on,
            Technique::ZeroCopy => {
                if on && before.bypass {
                    return Err(Refusal::new(
                        "Zero-copy receive is a kernel socket's: with kernel bypass the application already reads the buffers the NIC wrote.",
                    ));
                }
                next.zero_copy = on;
            }
            Technique::BusyPoll => {
                let mut rx = receive_model(&before);
                notes.extend(warnings(rx.apply(&BusyPollAction::Stage(use_(BUSY, on)))));
                next.busy_poll = rx.pipe.uses(BUSY);
                next.bypass = rx.pipe.uses(PMD);
                Self::match_send(&before, &mut next, &mut notes);
            }
            Technique::Bypass => {
                let mut tx = send_model(&before);
                notes.extend(warnings(tx.apply(&use_(BYPASS, on))));
                next.bypass = tx.pipe.uses(BYPASS);
                next.ctpio = tx.pipe.uses(CTPIO);
                Self::match_receive(&before, &mut next, &mut notes);
            }
            Technique::Ctpio => {
                let mut tx = send_model(&before);
                notes.extend(warnings(tx.apply(&use_(CTPIO, on))));
                next.bypass = tx.pipe.uses(BYPASS);
                next.ctpio = tx.pipe.uses(CTPIO);
                Self::match_receive(&before, &mut next, &mut notes);
            }
            Technique::Rdma => {
                next.rdma = on;
                if on {
                    if before.drop {
                        return Err(Refusal::new(
                            "A frame is dropped: RDMA's reliable connection retransmits on its own ACK timeout, which the lab does not model. Mend the drop first.",
                        ));
                    }
                    let socket_side: Vec<&str> = [
                        Technique::BusyPoll,
                        Technique::Bypass,
                        Technique::Ctpio,
                        Technique::ZeroCopy,
                    ]
                    .iter()
                    .filter(|&&t| before.uses(t))
                    .map(|t| t.name())
                    .collect();
                    if !socket_side.is_empty() {
                        notes.push(Event::warn(format!(
                            "RDMA WRITE has no socket and no TCP stack, so {} turn{} off: the verbs drive the RDMA NIC from user space, with no system call.",
                            socket_side.join(" and "),
                            if socket_side.len() == 1 { "s" } else { "" }
                        )));
                    }
                    next.busy_poll = false;
                    next.bypass = false;
                    next.ctpio = false;
                    next.zero_copy = false;
                }
            }
        }
        Ok((next, notes))
    }

    fn set_technique(&mut self, t: Technique, on: bool) -> Outcome {
        let (next, notes) = self.changed(t, on)?;
        self.apply_setup(
            next,
            notes,
            format!(
                "{} {}",
                capitalised(t.name()),
                if on { "on" } else { "off" }
            ),
        )
    }

    fn set_fault(&mut self, f: Fault, on: bool) -> Outcome {
        let mut next = self.setup;
        let mut notes = Vec::new();
        match f {
            Fault::Drop => next.drop = on,
            Fault::FullRing | Fault::BusyQdisc => {
                let technique = if f == Fault::FullRing {
                    STOPPED
                } else {
                    CONTENDED
                };
                let mut tx = send_model(&self.setup);
                notes.extend(warnings(tx.apply(&use_(technique, on))));
                next.full_ring = tx.pipe.uses(STOPPED);
                next.busy_qdisc = tx.pipe.uses(CONTENDED);
            }
        }
        let what = format!("{}: {}", if on { "Broken" } else { "Mended" }, f.name());
        self.apply_setup(next, notes, what)
    }

    fn apply_setup(&mut self, next: Setup, events: Vec<Event>, what: String) -> Outcome {
        let before = self.path().total_ns;
        self.setup = next;
        self.narrate_change(before, events, what)
    }

    /// After any change of the path: the message back at the start, the
    /// totals before and after, what dominates now, and a comparison row.
    fn narrate_change(&mut self, before: u64, mut events: Vec<Event>, what: String) -> Outcome {
        self.passed = 0;
        let path = self.path();
        let mut text = format!(
            "{what}. The path went from {} to {}.",
            ns(before as i64),
            ns(path.total_ns as i64)
        );
        if let Some(top) = path.dominant() {
            text.push_str(&format!(
                " {} dominates: {}, {} of it.",
                capitalised(top.id.name()),
                ns(top.ns as i64),
                tenths(path.share_tenths(top.id))
            ));
        }
        let tone = if path.total_ns < before {
            Event::done(text)
        } else if path.total_ns > before {
            Event::warn(text)
        } else {
            Event::info(text)
        };
        let focus = path.dominant().map(|s| s.id.key()).unwrap_or("total");
        events.push(tone.at(focus));
        self.remember();
        Ok(events)
    }

    fn set_message(&mut self, bytes: usize) -> Outcome {
        let before = self.path().total_ns;
        self.message_bytes = bytes;
        let frames = self.frames();
        self.narrate_change(
            before,
            Vec::new(),
            format!(
                "The message is now {bytes} byte{}, {} frame{} on the wire",
                plural(bytes),
                frames.lens.len(),
                plural(frames.lens.len())
            ),
        )
    }

    /// TCP's MSS: the encapsulation demo's bound, and its cut.
    fn set_mss(&mut self, mss: u16) -> Outcome {
        let before = self.path().total_ns;
        self.config.mss = mss;
        let frames = self.frames();
        self.narrate_change(
            before,
            Vec::new(),
            format!(
                "TCP's MSS is now {mss} bytes: the message goes in {} segment{}",
                frames.segments,
                plural(frames.segments)
            ),
        )
    }

    /// The line rate: one the cut-through demo (switch and CTPIO) offers.
    fn set_line(&mut self, gbps: u32) -> Outcome {
        let before = self.path().total_ns;
        self.config.line_gbps = gbps;
        self.narrate_change(
            before,
            Vec::new(),
            format!("The line now runs at {gbps} Gb/s"),
        )
    }

    /// Why `action` would be refused now, if it would: one place for every
    /// refusal, which `apply` asks first and the controls ask every frame
    /// (without the trial run the default would make, a whole path or two).
    fn refuse(&self, action: &JourneyAction) -> Option<Refusal> {
        let already = |what: String| Some(Refusal::new(what));
        match *action {
            JourneyAction::Step => self.next_auto().err(),
            JourneyAction::Again if self.passed == 0 => Some(Refusal::new(
                "The message is already at the start: press Step to move it.",
            )),
            JourneyAction::Again => None,
            JourneyAction::Use(t, on) if self.setup.uses(t) == on => already(format!(
                "{} is already {}.",
                capitalised(t.name()),
                if on { "on" } else { "off" }
            )),
            JourneyAction::Use(t, on) => self.changed(t, on).err(),
            JourneyAction::Break(f, on) if self.setup.breaks(f) == on => already(format!(
                "Already {}: {}.",
                if on { "broken" } else { "mended" },
                f.name()
            )),
            JourneyAction::Break(Fault::Drop, true) if self.setup.rdma => Some(Refusal::new(
                "RDMA's reliable connection retransmits on its own ACK timeout, which the lab does not model: switch RDMA off to drop a TCP frame.",
            )),
            JourneyAction::Break(..) => None,
            JourneyAction::SetMessage(bytes) => match MESSAGE.admit(bytes) {
                Err(r) => Some(r),
                Ok(_) if bytes == self.message_bytes => {
                    already(format!("The message is already {bytes} bytes."))
                }
                Ok(_) => None,
            },
            JourneyAction::SetMss(mss) => match MSS.admit(mss) {
                Err(r) => Some(r),
                Ok(_) if mss == self.config.mss => {
                    already(format!("The MSS is already {mss} bytes."))
                }
                Ok(_) => None,
            },
            JourneyAction::SetLine(gbps) if !WIRE_RATES.contains(&gbps) => {
                Some(Refusal::new(line_rates_text(gbps)))
            }
            JourneyAction::SetLine(gbps) if gbps == self.config.line_gbps => {
                already(format!("The line already runs at {gbps} Gb/s."))
            }
            JourneyAction::SetLine(_) => None,
        }
    }

    fn step(&mut self) -> Outcome {
        let path = self.path();
        let on: Vec<_> = path.on_path().collect();
        let Some(stage) = on.get(self.passed) else {
            return Err(self
                .next_auto()
                .err()
                .unwrap_or(Refusal::new("The message has arrived.")));
        };
        let clock = path.clock_after(self.passed + 1);
        let mut events = Vec::new();
        if self.passed == 0 {
            events.push(Event::info(format!(
                "t = 0: the application hands {} byte{} to the network. The clock starts.",
                self.message_bytes,
                plural(self.message_bytes)
            )));
        }
        events.push(
            Event::info(format!(
                "t = {}: {} took {}. {}",
                ns(clock as i64),
                stage.id.name(),
                ns(stage.ns as i64),
                stage.detail
            ))
            .at(stage.id.key()),
        );
        self.passed += 1;
        if self.passed == on.len() {
            events.push(
                Event::done(format!(
                    "The other application has the message after {}.",
                    ns(path.total_ns as i64)
                ))
                .at(stage.id.key()),
            );
        }
        Ok(events)
    }
}

impl Model for Journey {
    type Config = JourneyConfig;
    type Action = JourneyAction;

    fn validate(c: &JourneyConfig) -> Result<(), String> {
        MESSAGE.check(c.message_bytes)?;
        MSS.check(c.mss)?;
        if !WIRE_RATES.contains(&c.line_gbps) {
            return Err(line_rates_text(c.line_gbps));
        }
        CHUNKS.check(c.switch_threshold)?;
        Pcie::validate(&c.pcie)?;
        Coalescing::validate(&c.coalescing)?;
        CutThrough::validate(&c.ctpio)?;
        Incast::validate(&c.incast)?;
        Ok(())
    }

    fn new(c: &JourneyConfig) -> Self {
        let mut journey = Journey {
            config: c.clone(),
            message_bytes: c.message_bytes,
            setup: Setup::default(),
            passed: 0,
            tried: Vec::new(),
        };
        journey.remember();
        journey
    }

    fn intro(&self) -> Event {
        let path = self.path();
        Event::info(format!(
            "{} byte{} from one application to another across one switch: {} stages, {} in all. Step moves the message one stage; the toggles change the path.",
            self.message_bytes,
            plural(self.message_bytes),
            path.on_path().count(),
            ns(path.total_ns as i64)
        ))
    }

    fn apply(&mut self, action: &JourneyAction) -> Outcome {
        if let Some(refusal) = self.refuse(action) {
            return Err(refusal);
        }
        match *action {
            JourneyAction::Step => self.step(),
            JourneyAction::Again => {
                self.passed = 0;
                Ok(vec![Event::info(
                    "The message is back in the sending application; the clock reads 0.",
                )])
            }
            JourneyAction::Use(t, on) => self.set_technique(t, on),
            JourneyAction::Break(f, on) => self.set_fault(f, on),
            JourneyAction::SetMessage(bytes) => self.set_message(bytes),
            JourneyAction::SetMss(mss) => self.set_mss(mss),
            JourneyAction::SetLine(gbps) => self.set_line(gbps),
        }
    }

    fn refusal(&self, action: &JourneyAction) -> Option<Refusal> {
        self.refuse(action)
    }

    fn next_auto(&self) -> Result<JourneyAction, Refusal> {
        if self.passed < self.on_path_count() {
            Ok(JourneyAction::Step)
        } else {
            Err(Refusal::new(format!(
                "The message has arrived, after {}. Walk it again to watch once more.",
                ns(self.path().total_ns as i64)
            )))
        }
    }

    fn check(&self) -> Result<(), String> {
        MESSAGE.check(self.message_bytes)?;
        // The settings the learner changes stay ones the demos accept.
        Self::validate(&self.config)?;
        let path = self.path();
        let sum: u64 = path.on_path().map(|s| s.ns).sum();
        if sum != path.total_ns {
            return Err("the total is not the sum of the stages on the path".into());
        }
        if self.passed > path.on_path().count() {
            return Err("the message is past the end of the path".into());
        }
        let s = &self.setup;
        let tx = send_model(s);
        let rx = receive_model(s);
        if tx.pipe.uses(BYPASS) != (s.bypass || s.rdma) || rx.pipe.uses(PMD) != (s.bypass || s.rdma)
        {
            return Err("kernel bypass is not the same on both ends".into());
        }
        if tx.pipe.uses(CTPIO) != s.ctpio || rx.pipe.uses(BUSY) != s.busy_poll {
            return Err("a technique is on that its own model turned off".into());
        }
        if s.zero_copy && (s.bypass || s.rdma) {
            return Err("zero-copy receive is on without a kernel socket".into());
        }
        if s.rdma && (s.busy_poll || s.ctpio || s.bypass) {
            return Err("a socket technique is on beside RDMA".into());
        }
        if s.rdma && s.drop {
            return Err("RDMA with a dropped frame, which the lab does not model".into());
        }
        if self.tried.len() > super::TRIED_KEPT || self.tried.is_empty() {
            return Err("the comparison keeps between one and eight configurations".into());
        }
        Ok(())
    }

    fn status(&self) -> Vec<Figure> {
        let path = self.path();
        let mut figures = vec![
            Figure::new("total", "end to end", ns(path.total_ns as i64)),
            Figure::new("stages", "stages on the path", path.on_path().count()),
            Figure::new("frames", "frames", path.frames.lens.len()),
        ];
        if let Some(top) = path.dominant() {
            figures.push(Figure::new(
                "dominant",
                "dominates",
                format!("{} ({})", top.id.name(), tenths(path.share_tenths(top.id))),
            ));
        }
        figures
    }

    fn why(&self) -> Vec<String> {
        let path = self.path();
        let mut out = Vec::new();
        if let Some(top) = path.dominant() {
            out.push(format!(
                "{} takes {} of the {} this message needs: that is the stage to attack first.",
                capitalised(top.id.name()),
                tenths(path.share_tenths(top.id)),
                ns(path.total_ns as i64)
            ));
        }
        let cpu: u64 = path.on_path().filter(|s| s.id.cpu()).map(|s| s.ns).sum();
        out.push(format!(
            "CPU cores spend {} of it ({}); the rest is the NICs, PCIe, the wire and the switch.",
            ns(cpu as i64),
            tenths(crate::text::share_tenths(cpu as i64, path.total_ns as i64))
        ));
        if let (Some(fast), Some(slow)) = (
            self.tried.iter().min_by_key(|t| t.total_ns),
            self.tried.iter().max_by_key(|t| t.total_ns),
        ) {
            if fast.total_ns < slow.total_ns {
                out.push(format!(
                    "Of the configurations tried, the fastest ({}) takes {}, the slowest ({}) {}.",
                    fast.label(),
                    ns(fast.total_ns as i64),
                    slow.label(),
                    ns(slow.total_ns as i64)
                ));
            }
        }
        out
    }

    fn leaves_out() -> &'static str {
        "Leaves out: overlap between stages (the path is serial, each per-frame stage paid once per frame), the switch's own pipeline and the cable's propagation, the receiving NIC's PHY and MAC (only the sender's SerDes and PHY are timed), the ACK and the sender's completion, a per-byte cost of copies (so zero-copy receive moves bytes, not time), RoCE's own headers (an RDMA WRITE is drawn with the TCP frame's bytes), a user-space TCP stack's time under kernel bypass, TX push, and every stage model's own simplifications."
    }
}
