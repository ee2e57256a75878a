//! SEGMENT ARRIVES (RFC 9293 §3.10.7), state by state, with the checks
//! of RFC 5961 that RFC 9293 folds in.

use super::seq::{le, lt, within};
use super::user::notation;
use super::{Ending, Fate, Handshake, Held, Segment, Side, TcpState, ACK, FIN, RST, SYN, WINDOW};
use crate::model::Event;
use crate::text::plural;

fn has(seg: &Segment, bit: u8) -> bool {
    seg.flags & bit != 0
}

/// SEG.LEN: data plus SYN plus FIN (RFC 9293 §3.4).
fn seq_len(seg: &Segment) -> u32 {
    seg.len + u32::from(has(seg, SYN)) + u32::from(has(seg, FIN))
}

impl Handshake {
    fn seg_text(seg: &Segment) -> String {
        notation(
            seg.seq,
            has(seg, ACK).then_some(seg.ack),
            seg.flags,
            seg.len,
        )
    }

    /// Segment `id` reaches the other side.
    pub(super) fn deliver(&mut self, id: u32) -> Vec<Event> {
        let Some(seg) = self.segments.iter().find(|s| s.id == id).copied() else {
            return Vec::new();
        };
        let to = seg.from.other();
        let (fate, mut events) = match self.endpoint(to).state {
            TcpState::Closed => self.in_closed(to, &seg),
            TcpState::Listen => self.in_listen(to, &seg),
            TcpState::SynSent => self.in_syn_sent(to, &seg),
            _ => self.in_connection(to, &seg),
        };
        if let Some(s) = self.segments.iter_mut().find(|s| s.id == id) {
            s.fate = fate;
        }
        if let Some(first) = events.first_mut() {
            first.text = format!(
                "At {} ms the {} receives segment {id} {}: {}",
                self.now_ms,
                to.name(),
                Self::seg_text(&seg),
                first.text
            );
            first.focus.push(format!("seg-{id}"));
        }
        events
    }

    /// Sends an empty ACK: <SEQ=SND.NXT><ACK=RCV.NXT><CTL=ACK>.
    fn send_ack(&mut self, side: Side) -> u32 {
        let ep = self.endpoint(side);
        let (seq, ack) = (ep.snd_nxt, ep.rcv_nxt);
        self.emit(side, seq, Some(ack), 0, 0, false)
    }

    fn send_rst(&mut self, side: Side, seq: u32, ack: Option<u32>) -> u32 {
        self.counters.resets += 1;
        self.emit(side, seq, ack, RST, 0, false)
    }

    /// RFC 9293 §3.10.7.1: no TCB. Anything but a RST is answered by a RST
    /// the sender will accept.
    fn in_closed(&mut self, to: Side, seg: &Segment) -> (Fate, Vec<Event>) {
        if has(seg, RST) {
            return (
                Fate::Discarded,
                vec![Event::info(
                    "it has no connection, and a RST is never answered.",
                )],
            );
        }
        let (seq, ack) = if has(seg, ACK) {
            (seg.ack, None)
        } else {
            (0, Some(seg.seq.wrapping_add(seq_len(seg))))
        };
        let id = self.send_rst(to, seq, ack);
        (
            Fate::Discarded,
            vec![Event::warn(format!(
                "it has no connection, so it answers with a reset, segment {id} {} (RFC 9293 §3.10.7.1).",
                notation(seq, ack, RST, 0)
            ))
            .at(to.name())],
        )
    }

    /// RFC 9293 §3.10.7.2.
    fn in_listen(&mut self, to: Side, seg: &Segment) -> (Fate, Vec<Event>) {
        if has(seg, RST) {
            return (
                Fate::Discarded,
                vec![Event::info("a listening socket ignores a RST.")],
            );
        }
        if has(seg, ACK) {
            let id = self.send_rst(to, seg.ack, None);
            return (
                Fate::Discarded,
                vec![Event::warn(format!(
                    "an ACK cannot be meant for a socket that is only listening: it answers with a reset, segment {id} (RFC 9293 §3.10.7.2)."
                ))],
            );
        }
        if !has(seg, SYN) {
            return (
                Fate::Discarded,
                vec![Event::info(
                    "without SYN it means nothing to a listening socket.",
                )],
            );
        }
        let iss = self.choose_isn(to);
        let ep = self.ep(to);
        ep.irs = seg.seq;
        ep.rcv_nxt = seg.seq.wrapping_add(1);
        ep.peer_incarnation = Some(seg.sender_incarnation);
        ep.iss = iss;
        ep.snd_una = iss;
        ep.snd_nxt = iss;
        ep.state = TcpState::SynReceived;
        ep.passive = true;
        let rcv_nxt = ep.rcv_nxt;
        let (id, _) = self.send_new(to, SYN, 0);
        (
            Fate::Accepted,
            vec![Event::info(format!(
                "it records IRS {}, so the next byte it expects is {rcv_nxt}. It picks ISN {iss} and answers with segment {id} {}: SYN-RECEIVED (RFC 9293 §3.10.7.2).",
                seg.seq,
                notation(iss, Some(rcv_nxt), SYN | ACK, 0)
            ))
            .at(to.name())],
        )
    }

    /// RFC 9293 §3.10.7.3.
    fn in_syn_sent(&mut self, to: Side, seg: &Segment) -> (Fate, Vec<Event>) {
        let ep = self.endpoint(to);
        let (iss, snd_nxt) = (ep.iss, ep.snd_nxt);
        // First, the ACK: it must acknowledge our SYN and nothing beyond.
        if has(seg, ACK) && (le(seg.ack, iss) || lt(snd_nxt, seg.ack)) {
            if has(seg, RST) {
                return (
                    Fate::Discarded,
                    vec![Event::info(
                        "a RST whose ACK does not match its SYN is ignored.",
                    )],
                );
            }
            let id = self.send_rst(to, seg.ack, None);
            return (
                Fate::Discarded,
                vec![Event::warn(format!(
                    "ACK {} does not acknowledge its SYN ({iss}): this is not its connection, so it answers with a reset, segment {id} {} (RFC 9293 §3.10.7.3; §3.5.1, Figure 9).",
                    seg.ack,
                    notation(seg.ack, None, RST, 0)
                ))
                .at(to.name())],
            );
        }
        let ack_ok = has(seg, ACK);
        // Second, the RST.
        if has(seg, RST) {
            if !ack_ok {
                return (
                    Fate::Discarded,
                    vec![Event::info("a RST without an ACK is ignored in SYN-SENT.")],
                );
            }
            self.ep(to).delete_tcb(TcpState::Closed, Ending::Refused);
            return (
                Fate::Accepted,
                vec![Event::fault(
                    "the peer refuses the connection: \"connection reset\", and it is CLOSED (RFC 9293 §3.10.7.3).",
                )
                .at(to.name())],
            );
        }
        // Fourth, the SYN.
        if !has(seg, SYN) {
            return (
                Fate::Discarded,
                vec![Event::info(
                    "in SYN-SENT a segment with neither SYN nor RST is dropped (RFC 9293 §3.10.7.3, fifth step).",
                )],
            );
        }
        let ep = self.ep(to);
        ep.irs = seg.seq;
        ep.rcv_nxt = seg.seq.wrapping_add(1);
        ep.peer_incarnation = Some(seg.sender_incarnation);
        let rcv_nxt = ep.rcv_nxt;
        if ack_ok {
            self.take_ack(to, seg.ack);
        }
        let ep = self.endpoint(to);
        if lt(ep.iss, ep.snd_una) {
            let snd_nxt = ep.snd_nxt;
            let id = self.send_ack(to);
            let mut events = vec![Event::done(format!(
                "its SYN is acknowledged and the peer's ISN is {}. It answers with segment {id} {} and is ESTABLISHED (RFC 9293 §3.10.7.3).",
                seg.seq,
                notation(snd_nxt, Some(rcv_nxt), ACK, 0)
            ))
            .at(to.name())];
            events.extend(self.enter_established(to));
            return (Fate::Accepted, events);
        }
        // A SYN without our SYN acknowledged: both sides opened at once.
        let ep = self.ep(to);
        ep.state = TcpState::SynReceived;
        ep.passive = false;
        ep.rtt_probe = None; // the SYN goes out twice: no clean RTT sample
        let id = self.emit(to, iss, Some(rcv_nxt), SYN, 0, false);
        (
            Fate::Accepted,
            vec![Event::warn(format!(
                "a SYN with no ACK while it waits in SYN-SENT: both sides opened at once. It records IRS {} and sends its own SYN again, now acknowledging: segment {id} {}, SYN-RECEIVED (RFC 9293 §3.5, Figure 7).",
                seg.seq,
                notation(iss, Some(rcv_nxt), SYN | ACK, 0)
            ))
            .at(to.name())],
        )
    }

    /// RFC 9293 §3.10.7.4: SYN-RECEIVED and every synchronized state.
    fn in_connection(&mut self, to: Side, seg: &Segment) -> (Fate, Vec<Event>) {
        let ep = self.endpoint(to);
        let state = ep.state;
        // RFC 9293 Figure 7, line 6: in a simultaneous open the peer's
        // SYN,ACK repeats its SYN (SEG.SEQ = IRS), so it fails the sequence
        // test below, yet the figure shows it completing the handshake with
        // no further segment; Appendix A.2 admits the strict test gets in
        // the way here. Linux does exactly this since 2024: "tcp: Don't drop
        // SYN+ACK for simultaneous connect()" (tcp_validate_incoming() lets
        // it pass, tcp_rcv_state_process() consumes it without an ACK).
        let repeat_syn_ack = state == TcpState::SynReceived
            && !ep.passive
            && has(seg, SYN)
            && has(seg, ACK)
            && seg.seq == ep.irs
            && seg.ack == ep.snd_nxt;
        if repeat_syn_ack {
            return self.take_repeated_syn_ack(to, seg);
        }
        // First: is the segment in the receive window (Table 6)?
        let len = seq_len(seg);
        let acceptable = within(seg.seq, ep.rcv_nxt, WINDOW)
            || (len > 0 && within(seg.seq.wrapping_add(len - 1), ep.rcv_nxt, WINDOW));
        if !acceptable {
            if has(seg, RST) {
                return (
                    Fate::Discarded,
                    vec![Event::info(
                        "a RST outside the window is dropped silently (RFC 9293 §3.10.7.4).",
                    )],
                );
            }
            let old = lt(seg.seq, ep.rcv_nxt);
            let refin = state == TcpState::TimeWait
                && has(seg, FIN)
                && seg.seq.wrapping_add(len) == ep.rcv_nxt;
            let rcv_nxt = ep.rcv_nxt;
            let id = self.send_ack(to);
            if refin {
                // The only thing TIME-WAIT expects: a retransmitted FIN.
                // Acknowledge it and restart 2·MSL (RFC 9293 §3.10.7.4;
                // Linux tcp_timewait_state_process()).
                self.start_time_wait(to);
                return (
                    Fate::Accepted,
                    vec![Event::warn(format!(
                        "its last ACK was lost, so the peer sent its FIN again. It acknowledges it again with segment {id} and restarts the 2·MSL wait."
                    ))
                    .at(format!("timer-{}", to.name()))],
                );
            }
            // A repeated SYN in SYN-RECEIVED lands here too and gets this
            // bare ACK, as RFC 9293's text says; Linux instead resends its
            // SYN,ACK at once (tcp_check_req(), citing RFC 793's figures).
            let why = if old {
                format!("it is an old duplicate: everything before {rcv_nxt} was already received")
            } else {
                format!("it lies beyond the window that starts at {rcv_nxt}")
            };
            return (
                Fate::Discarded,
                vec![Event::info(format!(
                    "{why}. It drops it and repeats what it expects with segment {id}, an ACK of {rcv_nxt} (RFC 9293 §3.10.7.4)."
                ))],
            );
        }
        // A data segment ahead of RCV.NXT waits for the gap to fill.
        if (seg.len > 0 || has(seg, FIN))
            && lt(ep.rcv_nxt, seg.seq)
            && !has(seg, RST)
            && !has(seg, SYN)
        {
            let rcv_nxt = ep.rcv_nxt;
            let ep = self.ep(to);
            if !ep.held.iter().any(|h| h.seq == seg.seq) {
                ep.held.push(Held {
                    seq: seg.seq,
                    ack: seg.ack,
                    flags: seg.flags,
                    len: seg.len,
                });
            }
            let id = self.send_ack(to);
            return (
                Fate::Accepted,
                vec![Event::warn(format!(
                    "it starts at {} but {rcv_nxt} is still missing. It holds the segment for later (RFC 9293 §3.10.7.4, SHLD-31) and repeats ACK {rcv_nxt} with segment {id}.",
                    seg.seq
                ))],
            );
        }
        // Second: RST, valid only at exactly RCV.NXT (RFC 5961 §3).
        if has(seg, RST) {
            if seg.seq != ep.rcv_nxt {
                let id = self.send_ack(to);
                return (
                    Fate::Discarded,
                    vec![Event::warn(format!(
                        "a RST inside the window but not at {}: it could be forged, so it sends a challenge ACK, segment {id} (RFC 5961 §3).",
                        ep_rcv(self, to)
                    ))],
                );
            }
            return (Fate::Accepted, vec![self.reset(to)]);
        }
        // Fourth: a SYN in the window.
        if has(seg, SYN) {
            if state == TcpState::SynReceived && ep.passive {
                self.ep(to).delete_tcb(TcpState::Listen, Ending::Reset);
                return (
                    Fate::Accepted,
                    vec![Event::warn("a new SYN in the window: it abandons the half-made connection and returns to LISTEN (RFC 9293 §3.10.7.4).").at(to.name())],
                );
            }
            let id = self.send_ack(to);
            return (
                Fate::Discarded,
                vec![Event::warn(format!(
                    "a SYN on a connection already set up. It answers with a challenge ACK, segment {id}, and drops it (RFC 5961 §4; RFC 9293 §3.10.7.4)."
                ))],
            );
        }
        // Fifth onward: ACK, text, FIN; then any held segment now in order.
        if !has(seg, ACK) {
            return (
                Fate::Discarded,
                vec![Event::info(
                    "without the ACK bit it is dropped (RFC 9293 §3.10.7.4, fifth step).",
                )],
            );
        }
        let mut events = Vec::new();
        let mut need_ack = false;
        let mut first = Held {
            seq: seg.seq,
            ack: seg.ack,
            flags: seg.flags,
            len: seg.len,
        };
        // "If a segment's contents straddle the boundary between old and
        // new, only the new parts are processed" (RFC 9293 §3.10.7.4).
        let rcv_nxt = self.endpoint(to).rcv_nxt;
        if lt(first.seq, rcv_nxt) {
            let skip = rcv_nxt.wrapping_sub(first.seq);
            if skip > first.len {
                first.flags &= !FIN;
            }
            first.len -= skip.min(first.len);
            first.seq = rcv_nxt;
        }
        let mut next = Some(first);
        let mut fate = Fate::Accepted;
        while let Some(h) = next {
            match self.in_order(to, h, &mut need_ack, &mut events) {
                Some(f) => fate = f,
                None => return (fate, events),
            }
            let ep = self.ep(to);
            next = ep
                .held
                .iter()
                .position(|x| x.seq == ep.rcv_nxt)
                .map(|i| ep.held.remove(i));
        }
        if need_ack {
            let ep = self.endpoint(to);
            let (snd_nxt, rcv_nxt) = (ep.snd_nxt, ep.rcv_nxt);
            let id = self.send_ack(to);
            events.push(Event::info(format!(
                "The {} acknowledges with segment {id} {}.",
                to.name(),
                notation(snd_nxt, Some(rcv_nxt), ACK, 0)
            )));
        }
        if events.is_empty() {
            events.push(Event::info("a duplicate ACK that changes nothing."));
        }
        (fate, events)
    }

    fn take_repeated_syn_ack(&mut self, to: Side, seg: &Segment) -> (Fate, Vec<Event>) {
        self.take_ack(to, seg.ack);
        let mut events = vec![Event::done(format!(
            "the peer's SYN,ACK repeats its SYN and acknowledges {}: ESTABLISHED, with no further segment needed (RFC 9293 §3.5, Figure 7).",
            seg.ack
        ))
        .at(to.name())];
        events.extend(self.enter_established(to));
        (Fate::Accepted, events)
    }

    /// A valid RST at RCV.NXT (RFC 9293 §3.10.7.4, second check).
    fn reset(&mut self, to: Side) -> Event {
        let ep = self.ep(to);
        let (next, why, text) = match ep.state {
            TcpState::SynReceived if ep.passive => (
                TcpState::Listen,
                Ending::Reset,
                "the peer reset the half-made connection: back to LISTEN (RFC 9293 §3.10.7.4).",
            ),
            TcpState::SynReceived => (
                TcpState::Closed,
                Ending::Refused,
                "\"connection refused\": CLOSED (RFC 9293 §3.10.7.4).",
            ),
            _ => (
                TcpState::Closed,
                Ending::Reset,
                "\"connection reset\": every queue is flushed and it is CLOSED (RFC 9293 §3.10.7.4).",
            ),
        };
        ep.delete_tcb(next, why);
        Event::fault(text).at(to.name())
    }

    /// Steps five to eight of RFC 9293 §3.10.7.4 for a segment that starts
    /// at RCV.NXT: ACK, text, FIN. None when processing stops here.
    fn in_order(
        &mut self,
        to: Side,
        h: Held,
        need_ack: &mut bool,
        events: &mut Vec<Event>,
    ) -> Option<Fate> {
        let who = to.name();
        let ep = self.endpoint(to);
        let (una, nxt) = (ep.snd_una, ep.snd_nxt);
        if ep.state == TcpState::SynReceived {
            if !(lt(una, h.ack) && le(h.ack, nxt)) {
                let id = self.send_rst(to, h.ack, None);
                events.push(Event::warn(format!(
                    "ACK {} does not acknowledge its SYN,ACK, so it answers with a reset, segment {id} (RFC 9293 §3.10.7.4).",
                    h.ack
                )));
                return None;
            }
            self.take_ack(to, h.ack);
            events.push(
                Event::done("its SYN,ACK is acknowledged: ESTABLISHED. The three-way handshake is complete.").at(who),
            );
            events.extend(self.enter_established(to));
        } else if lt(nxt, h.ack) {
            let id = self.send_ack(to);
            events.push(Event::warn(format!(
                "ACK {} acknowledges bytes never sent (SND.NXT is {nxt}): it answers with an ACK, segment {id}, and drops the segment (RFC 9293 §3.10.7.4).",
                h.ack
            )));
            return Some(Fate::Discarded);
        } else if self.take_ack(to, h.ack) {
            let ep = self.endpoint(to);
            let fin_acked = ep.snd_una == ep.snd_nxt;
            match ep.state {
                TcpState::FinWait1 if fin_acked => {
                    self.ep(to).state = TcpState::FinWait2;
                    events.push(
                        Event::info(
                            "its FIN is acknowledged: FIN-WAIT-2, waiting for the peer's FIN.",
                        )
                        .at(who),
                    );
                }
                TcpState::Closing if fin_acked => {
                    self.start_time_wait(to);
                    events.push(
                        Event::info(format!(
                            "its FIN is acknowledged: TIME-WAIT for 2·MSL = {} s.",
                            2 * self.config.msl_ms / 1000
                        ))
                        .at(who),
                    );
                }
                TcpState::LastAck if fin_acked => {
                    self.ep(to).delete_tcb(TcpState::Closed, Ending::Closed);
                    events.push(
                        Event::done("its FIN is acknowledged: the TCB is deleted, CLOSED.").at(who),
                    );
                    return None;
                }
                _ => events.push(Event::info(format!(
                    "SND.UNA moves to {}, so every byte before it is acknowledged.",
                    h.ack
                ))),
            }
        }
        // Seventh: the text, taken only in states that still receive.
        let state = self.endpoint(to).state;
        if h.len > 0 {
            if matches!(
                state,
                TcpState::Established | TcpState::FinWait1 | TcpState::FinWait2
            ) {
                let ep = self.ep(to);
                ep.rcv_nxt = ep.rcv_nxt.wrapping_add(h.len);
                ep.bytes_received += u64::from(h.len);
                *need_ack = true;
                events.push(Event::info(format!(
                    "{} byte{} of data taken; the next byte it expects is {}.",
                    h.len,
                    plural(h.len as usize),
                    self.endpoint(to).rcv_nxt
                )));
            } else {
                events.push(Event::info(
                    "the peer already sent its FIN, so this data is ignored.",
                ));
            }
        }
        // Eighth: the FIN, one sequence number after the data.
        if h.flags & FIN != 0 {
            let ep = self.ep(to);
            ep.rcv_nxt = ep.rcv_nxt.wrapping_add(1);
            ep.fin_received = true;
            *need_ack = true;
            let fin_acked = ep.snd_una == ep.snd_nxt;
            let next = match ep.state {
                TcpState::SynReceived | TcpState::Established => TcpState::CloseWait,
                TcpState::FinWait1 if fin_acked => TcpState::TimeWait,
                TcpState::FinWait1 => TcpState::Closing,
                TcpState::FinWait2 | TcpState::TimeWait => TcpState::TimeWait,
                other => other,
            };
            if next == TcpState::TimeWait {
                self.start_time_wait(to);
            } else {
                self.ep(to).state = next;
            }
            let note = match next {
                TcpState::CloseWait => {
                    "the peer has no more data, so CLOSE-WAIT until this side closes too."
                }
                TcpState::Closing => {
                    "both sides closed at once, so CLOSING until its own FIN is acknowledged."
                }
                TcpState::TimeWait => "TIME-WAIT, lingering 2·MSL in case its last ACK is lost.",
                _ => "nothing else changes.",
            };
            events.push(
                Event::info(format!(
                    "the peer's FIN takes sequence number {}: {note}",
                    ep_rcv(self, to).wrapping_sub(1)
                ))
                .at(who),
            );
        }
        Some(Fate::Accepted)
    }
}

fn ep_rcv(m: &Handshake, side: Side) -> u32 {
    m.endpoint(side).rcv_nxt
}
