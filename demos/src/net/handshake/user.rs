//! The user calls: OPEN, SEND, CLOSE (RFC 9293 §3.10.1, §3.10.2, §3.10.4),
//! a crash that loses the TCB (§3.5.1), and the learner dropping a segment.

use super::{
    Ending, Endpoint, Fate, Handshake, Outstanding, Side, TcpState, FIN, MAX_UNACKED_SEGMENTS, PSH,
    SEND_MAX_SEGMENTS, SYN, WINDOW,
};
use crate::model::{Event, Outcome, Refusal};
use crate::text::plural;

/// A segment in RFC 9293's notation: `<SEQ=100><ACK=301><CTL=SYN,ACK>`.
pub fn notation(seq: u32, ack: Option<u32>, flags: u8, len: u32) -> String {
    use crate::net::wire::tcp::FLAGS;
    let flags = if ack.is_some() {
        flags | super::ACK
    } else {
        flags
    };
    let mut out = format!("<SEQ={seq}>");
    if let Some(a) = ack {
        out.push_str(&format!("<ACK={a}>"));
    }
    let names: Vec<&str> = [super::SYN, super::FIN, super::RST, super::PSH, super::ACK]
        .iter()
        .filter(|b| flags & **b != 0)
        .filter_map(|b| FLAGS.iter().find(|f| f.0 == *b).map(|f| f.2))
        .collect();
    out.push_str(&format!("<CTL={}>", names.join(",")));
    if len > 0 {
        out.push_str(&format!("<DATA={len}>"));
    }
    out
}

impl Handshake {
    /// The ISS for a new connection: the configured ISN the first time,
    /// then the 4-microsecond clock of RFC 9293 §3.4.1 (250 ticks per
    /// millisecond) running on from it, so a new incarnation starts far
    /// from the sequence numbers of the last one.
    pub(super) fn choose_isn(&mut self, side: Side) -> u32 {
        let now = self.now_ms;
        let configured = match side {
            Side::Client => self.config.client_isn,
            Side::Server => self.config.server_isn,
        };
        let ep = self.ep(side);
        ep.incarnation += 1;
        match ep.isn_clock {
            None => {
                ep.isn_clock = Some((configured, now));
                configured
            }
            Some((first, at)) => first.wrapping_add(((now - at) * 250) as u32),
        }
    }

    /// A fresh TCB in `state` (the ISN clock survives).
    pub(super) fn new_tcb(&mut self, side: Side, state: TcpState) {
        let ep = self.ep(side);
        let (clock, incarnation) = (ep.isn_clock, ep.incarnation);
        *ep = Endpoint::closed();
        ep.isn_clock = clock;
        ep.incarnation = incarnation;
        ep.state = state;
    }

    /// The ACK field a segment from `side` carries now: none from SYN-SENT
    /// (its SYN acknowledges nothing), RCV.NXT otherwise.
    pub(super) fn ack_field(&self, side: Side) -> Option<u32> {
        let ep = self.endpoint(side);
        (ep.state != TcpState::SynSent).then_some(ep.rcv_nxt)
    }

    /// Sends a segment that occupies sequence space (SYN, data or FIN): it
    /// goes on the retransmission queue, is timed if nothing else is (RFC
    /// 6298 §3), and starts the timer if it is not running (RFC 6298 5.1).
    pub(super) fn send_new(&mut self, side: Side, flags: u8, len: u32) -> (u32, u32) {
        let now = self.now_ms;
        let ack = self.ack_field(side);
        let ep = self.ep(side);
        let out = Outstanding {
            seq: ep.snd_nxt,
            len,
            flags,
            first_sent_ms: now,
            retransmitted: false,
        };
        ep.snd_nxt = out.seq.wrapping_add(out.seq_len());
        if ep.rtt_probe.is_none() {
            ep.rtt_probe = Some((ep.snd_nxt, now));
        }
        if ep.rtx_timer_ms.is_none() {
            ep.rtx_timer_ms = Some(now + ep.rto_ms);
        }
        ep.rtx.push(out);
        ep.bytes_sent += u64::from(len);
        (self.emit(side, out.seq, ack, flags, len, false), out.seq)
    }

    pub(super) fn passive_open(&mut self, side: Side) -> Outcome {
        let state = self.endpoint(side).state;
        if state != TcpState::Closed {
            return Err(Refusal::new(format!(
                "The {} is in {}: OPEN fails with \"connection already exists\" (RFC 9293 §3.10.1). Close it first.",
                side.name(),
                state.label()
            )));
        }
        self.new_tcb(side, TcpState::Listen);
        Ok(vec![Event::info(format!(
            "The {} opens passively: LISTEN, waiting for a SYN.",
            side.name()
        ))
        .at(side.name())])
    }

    pub(super) fn active_open(&mut self, side: Side) -> Outcome {
        let state = self.endpoint(side).state;
        if !matches!(state, TcpState::Closed | TcpState::Listen) {
            return Err(Refusal::new(format!(
                "The {} is in {}: OPEN fails with \"connection already exists\" (RFC 9293 §3.10.1). Close it first.",
                side.name(),
                state.label()
            )));
        }
        // From LISTEN the RFC turns the passive OPEN into an active one (§3.10.1).
        let iss = self.choose_isn(side);
        self.new_tcb(side, TcpState::SynSent);
        let ep = self.ep(side);
        ep.iss = iss;
        ep.snd_una = iss;
        ep.snd_nxt = iss;
        let rto = ep.rto_ms;
        let (id, _) = self.send_new(side, SYN, 0);
        Ok(vec![Event::info(format!(
            "The {} opens actively with ISN {iss}: segment {id} {} leaves, and it waits in SYN-SENT. Its retransmission timer is set to {} ms (RFC 6298's initial RTO).",
            side.name(),
            notation(iss, None, SYN, 0),
            rto
        ))
        .at(side.name())
        .at(format!("seg-{id}"))])
    }

    pub(super) fn send(&mut self, side: Side, bytes: u32) -> Outcome {
        let most = SEND_MAX_SEGMENTS * self.config.mss;
        if bytes == 0 || bytes > most {
            return Err(Refusal::new(format!(
                "Send 1 to {most} bytes at a time here ({SEND_MAX_SEGMENTS} segments of {}).",
                self.config.mss
            )));
        }
        let ep = self.endpoint(side);
        let who = side.name();
        match ep.state {
            TcpState::Closed => Err(Refusal::new(format!(
                "The {who} has no connection: SEND fails with \"connection does not exist\" (RFC 9293 §3.10.2). Open one first."
            ))),
            TcpState::Listen => Err(Refusal::new(format!(
                "The {who} is only listening and knows no peer yet, so there is nowhere to send: the sockets API refuses send() on a listening socket."
            ))),
            TcpState::SynSent | TcpState::SynReceived => {
                if ep.queued + bytes > most {
                    return Err(Refusal::new(format!(
                        "{} bytes already wait for the handshake; at most {most} may be queued here.",
                        ep.queued
                    )));
                }
                self.ep(side).queued += bytes;
                Ok(vec![Event::warn(format!(
                    "The handshake is not complete, so no data may leave yet: TCP queues the {bytes} byte{} and will send them once ESTABLISHED (RFC 9293 §3.10.2).",
                    plural(bytes as usize)
                ))
                .at(who)])
            }
            TcpState::Established | TcpState::CloseWait => {
                let unacked = ep.snd_nxt.wrapping_sub(ep.snd_una);
                let segments = bytes.div_ceil(self.config.mss) as usize;
                if ep.rtx.len() + segments > MAX_UNACKED_SEGMENTS {
                    return Err(Refusal::new(format!(
                        "{} segments are still unacknowledged: this lab lets at most {MAX_UNACKED_SEGMENTS} be in flight (a real sender is held back by its congestion window). Let some ACKs arrive first.",
                        ep.rtx.len()
                    )));
                }
                if unacked + bytes > WINDOW {
                    return Err(Refusal::new(format!(
                        "The peer offers a {WINDOW}-byte window and {unacked} bytes are still unacknowledged: wait for ACKs before sending {bytes} more."
                    )));
                }
                Ok(self.segmentize(side, bytes))
            }
            state => Err(Refusal::new(format!(
                "The {who} is in {}: it has closed its sending direction, so SEND fails with \"connection closing\" (RFC 9293 §3.10.2).",
                state.label()
            ))),
        }
    }

    /// Cuts `bytes` into segments of at most one MSS, PSH on the last.
    pub(super) fn segmentize(&mut self, side: Side, bytes: u32) -> Vec<Event> {
        let mss = self.config.mss;
        let mut left = bytes;
        let mut ids = Vec::new();
        let first = self.endpoint(side).snd_nxt;
        while left > 0 {
            let len = left.min(mss);
            left -= len;
            let flags = if left == 0 { PSH } else { 0 };
            ids.push(self.send_new(side, flags, len).0);
        }
        let ack = self.endpoint(side).rcv_nxt;
        let n = ids.len();
        let each = if n == 1 { "" } else { "each " };
        let mut event = Event::info(format!(
            "The {} sends {bytes} byte{} in {n} segment{} from SEQ {first}, {each}carrying ACK {ack}.",
            side.name(),
            plural(bytes as usize),
            plural(n)
        ))
        .at(side.name());
        for id in ids {
            event = event.at(format!("seg-{id}"));
        }
        vec![event]
    }

    /// Sends the FIN: it takes one sequence number after the last data byte.
    fn send_fin(&mut self, side: Side, next: TcpState) -> Vec<Event> {
        let (id, seq) = self.send_new(side, FIN, 0);
        let ack = self.endpoint(side).rcv_nxt;
        self.ep(side).state = next;
        vec![Event::info(format!(
            "The {} closes its sending direction: segment {id} {} takes sequence number {seq}, so the peer will acknowledge {}. {}.",
            side.name(),
            notation(seq, Some(ack), FIN, 0),
            seq.wrapping_add(1),
            next.label()
        ))
        .at(side.name())
        .at(format!("seg-{id}"))]
    }

    pub(super) fn close(&mut self, side: Side) -> Outcome {
        let ep = self.endpoint(side);
        let who = side.name();
        match ep.state {
            TcpState::Closed => Err(Refusal::new(format!(
                "The {who} has no connection: CLOSE fails with \"connection does not exist\" (RFC 9293 §3.10.4)."
            ))),
            TcpState::Listen => {
                self.ep(side).delete_tcb(TcpState::Closed, Ending::Closed);
                Ok(vec![Event::info(format!("The {who} stops listening: CLOSED.")).at(who)])
            }
            TcpState::SynSent => {
                self.ep(side).delete_tcb(TcpState::Closed, Ending::Closed);
                Ok(vec![Event::warn(format!(
                    "The {who} gives up before any answer: its TCB is deleted and it is CLOSED (RFC 9293 §3.10.4). A SYN already on the link still arrives."
                ))
                .at(who)])
            }
            TcpState::SynReceived if ep.queued > 0 => {
                self.ep(side).close_queued = true;
                Ok(vec![Event::info(format!(
                    "Data still waits for the handshake, so the {who}'s CLOSE is queued: the FIN follows the data once ESTABLISHED (RFC 9293 §3.10.4)."
                ))
                .at(who)])
            }
            TcpState::SynReceived | TcpState::Established => Ok(self.send_fin(side, TcpState::FinWait1)),
            TcpState::CloseWait => Ok(self.send_fin(side, TcpState::LastAck)),
            state => Err(Refusal::new(format!(
                "The {who} is already closing ({}): CLOSE fails with \"connection closing\" (RFC 9293 §3.10.4).",
                state.label()
            ))),
        }
    }

    pub(super) fn crash(&mut self, side: Side) -> Outcome {
        if self.endpoint(side).state == TcpState::Closed {
            return Err(Refusal::new(format!(
                "The {} has no connection for a crash to lose.",
                side.name()
            )));
        }
        self.ep(side).delete_tcb(TcpState::Closed, Ending::Crashed);
        self.counters.crashes += 1;
        Ok(vec![Event::fault(format!(
            "The {} host reboots: its TCB is gone and the peer is not told. Any segment of the old connection that reaches it now gets a RST (RFC 9293 §3.5.1).",
            side.name()
        ))
        .at(side.name())])
    }

    pub(super) fn drop_segment(&mut self, id: u32) -> Outcome {
        let Some(seg) = self
            .segments
            .iter_mut()
            .find(|s| s.id == id && s.fate == Fate::InFlight)
        else {
            return Err(Refusal::new(format!(
                "Segment {id} is not on the link: only a segment in flight can be lost."
            )));
        };
        seg.fate = Fate::Dropped;
        let (from, label) = (
            seg.from,
            notation(
                seg.seq,
                (seg.flags & super::ACK != 0).then_some(seg.ack),
                seg.flags,
                seg.len,
            ),
        );
        self.counters.dropped += 1;
        Ok(vec![Event::fault(format!(
            "Segment {id} {label} from the {} is lost on the link.",
            from.name()
        ))
        .at(format!("seg-{id}"))])
    }

    /// After the handshake: RFC 6298 5.7, then what waited for ESTABLISHED.
    pub(super) fn enter_established(&mut self, side: Side) -> Vec<Event> {
        let ep = self.ep(side);
        ep.state = TcpState::Established;
        let mut events = Vec::new();
        if ep.syn_timed_out && ep.rto_ms < super::RTO_AFTER_SYN_TIMEOUT_MS {
            ep.rto_ms = super::RTO_AFTER_SYN_TIMEOUT_MS;
            events.push(
                Event::info(format!(
                    "Its SYN once timed out, so the {} starts data with an RTO of 3 s (RFC 6298, rule 5.7).",
                    side.name()
                ))
                .at(format!("timer-{}", side.name())),
            );
        }
        let queued = std::mem::take(&mut ep.queued);
        let close = std::mem::take(&mut ep.close_queued);
        if queued > 0 {
            events.extend(self.segmentize(side, queued));
        }
        if close {
            events.extend(self.send_fin(side, TcpState::FinWait1));
        }
        events
    }
}
