//! Intro, status figures, "why it matters" and the invariants.

use super::seq::{le, lt};
use super::{Fate, Handshake, Side, TcpState, ACK};
use crate::model::{Event, Figure};

impl Handshake {
    pub(super) fn intro_event(&self) -> Event {
        let next = if self.server.state == TcpState::Listen {
            "Step to open the connection."
        } else {
            "Open a side to begin."
        };
        Event::info(format!(
            "Client {}, server {}; each segment takes {} ms across the link. {next}",
            self.client.state.label(),
            self.server.state.label(),
            self.config.delay_ms
        ))
    }

    pub(super) fn figures(&self) -> Vec<Figure> {
        vec![
            Figure::new("time", "time", format!("{} ms", self.now_ms)),
            Figure::new("client", "client", self.client.state.label()),
            Figure::new("server", "server", self.server.state.label()),
            Figure::new(
                "client-rto",
                "client RTO",
                format!("{} ms", self.client.rto_ms),
            ),
            Figure::new(
                "server-rto",
                "server RTO",
                format!("{} ms", self.server.rto_ms),
            ),
            Figure::new("segments", "segments sent", self.counters.segments),
            Figure::new(
                "retransmissions",
                "retransmissions",
                self.counters.retransmissions,
            ),
            Figure::new("dropped", "dropped", self.counters.dropped),
        ]
    }

    pub(super) fn why_sentences(&self) -> Vec<String> {
        let c = &self.client;
        let s = &self.server;
        let mut out = Vec::new();
        if c.state.synchronized() && s.state.synchronized() && c.irs == s.iss {
            out.push(format!(
                "Each side's SYN used one sequence number, so the first data byte of the client is {} and of the server {}: an ACK names the next byte expected, not the last one received.",
                c.iss.wrapping_add(1),
                s.iss.wrapping_add(1)
            ));
        }
        let rtt = 2 * self.config.delay_ms;
        out.push(format!(
            "The handshake costs one round trip, {rtt} ms here, before the client may send its first byte, and a lost SYN or SYN,ACK costs at least the 1 s initial RTO on top (RFC 6298)."
        ));
        if [c, s].iter().any(|e| e.state == TcpState::TimeWait) {
            out.push(format!(
                "TIME-WAIT lasts 2·MSL = {} s: long enough for a lost final ACK to be answered again, and for old duplicates of this connection to die before the same ports are reused.",
                2 * self.config.msl_ms / 1000
            ));
        }
        if c.state.synchronized() != s.state.synchronized() && self.next_event().is_none() {
            out.push("One side believes in a connection the other has lost: a half-open connection. The first segment it sends will be answered by a RST (RFC 9293 §3.5.1).".into());
        }
        out
    }

    pub(super) fn check_invariants(&self) -> Result<(), String> {
        for side in [Side::Client, Side::Server] {
            let e = self.endpoint(side);
            let who = side.name();
            if !e.state.has_connection() && (!e.rtx.is_empty() || e.rtx_timer_ms.is_some()) {
                return Err(format!(
                    "the {who} has no connection but a retransmission queue or timer"
                ));
            }
            if e.rtx.is_empty() == e.rtx_timer_ms.is_some() {
                return Err(format!(
                    "the {who}'s timer must run exactly while data is unacknowledged"
                ));
            }
            if (e.state == TcpState::TimeWait) != e.time_wait_until_ms.is_some() {
                return Err(format!("the {who}'s 2·MSL timer runs outside TIME-WAIT"));
            }
            if e.state.has_connection() && !le(e.snd_una, e.snd_nxt) {
                return Err(format!("the {who}'s SND.UNA is beyond SND.NXT"));
            }
            for o in &e.rtx {
                if lt(o.seq, e.snd_una) || lt(e.snd_nxt, o.seq.wrapping_add(o.seq_len())) {
                    return Err(format!(
                        "the {who} keeps a segment outside SND.UNA..SND.NXT"
                    ));
                }
            }
            if e.rto_ms < super::RTO_MIN_MS || e.rto_ms > super::RTO_MAX_MS {
                return Err(format!("the {who}'s RTO left 1 s to 60 s"));
            }
            // Never acknowledge a byte the peer did not send: RCV.NXT lies
            // within what this incarnation of the peer has sent.
            let peer = self.endpoint(side.other());
            let synced = e.state == TcpState::SynReceived || e.state.synchronized();
            if synced && peer.state.has_connection() && e.peer_incarnation == Some(peer.incarnation)
            {
                if !(lt(peer.iss, e.rcv_nxt) && le(e.rcv_nxt, peer.snd_nxt)) {
                    return Err(format!(
                        "the {who} expects byte {} which the peer never sent",
                        e.rcv_nxt
                    ));
                }
                let taken = e.bytes_received + 1 + u64::from(e.fin_received);
                if u64::from(e.rcv_nxt.wrapping_sub(e.irs)) != taken {
                    return Err(format!("the {who}'s RCV.NXT does not match what it took"));
                }
            }
        }
        for seg in &self.segments {
            if seg.arrives_ms != seg.sent_ms + u64::from(self.config.delay_ms)
                || seg.sent_ms > self.now_ms
            {
                return Err(format!("segment {} breaks the link's timing", seg.id));
            }
            if seg.fate == Fate::InFlight && seg.arrives_ms < self.now_ms {
                return Err(format!(
                    "segment {} is still in flight after its arrival time",
                    seg.id
                ));
            }
            // An ACK never names a byte its peer incarnation has not sent.
            let peer = self.endpoint(seg.from.other());
            if seg.flags & ACK != 0
                && seg.acks_incarnation == Some(peer.incarnation)
                && peer.state.has_connection()
                && !le(seg.ack, peer.snd_nxt)
            {
                return Err(format!("segment {} acknowledges bytes never sent", seg.id));
            }
        }
        Ok(())
    }
}
