//! TCP connection set-up and teardown: both endpoints' state machines
//! (RFC 9293 §3.3.2, Figure 5) with real sequence and acknowledgment
//! numbers, segments crossing a link of fixed one-way delay, and the
//! retransmission timer (RFC 6298).
//!
//! Time is model state: Step jumps to the next event (an arrival, or a
//! timer expiring). Every rule cites the section of RFC 9293 it follows:
//! the user calls of §3.10.1–§3.10.4, SEGMENT ARRIVES of §3.10.7 (with the
//! RFC 5961 checks it incorporates), the timeouts of §3.10.8.
//!
//! Break it: drop any segment in flight and watch the retransmission, let
//! a host crash to leave a half-open connection (§3.5.1), open both ends
//! at once (§3.5, Figure 7), send before the handshake completes (§3.10.2
//! queues it), and watch TIME-WAIT hold for 2·MSL.

mod arrive;
mod report;
pub mod seq;
mod timers;
mod user;

use crate::model::{Event, Figure, Model, Outcome, Refusal};
use crate::Bound;
use serde::{Deserialize, Serialize};

/// The receive window each side offers. Flow control is not modelled:
/// 65,535 is the largest window without window scaling (RFC 7323).
pub const WINDOW: u32 = 65_535;
/// RFC 6298 (2.1): "Until a round-trip time (RTT) measurement has been
/// made … the sender SHOULD set RTO <- 1 second".
pub const RTO_INITIAL_MS: u64 = 1_000;
/// RFC 6298 (2.4): a computed RTO below 1 second is rounded up to 1 second.
pub const RTO_MIN_MS: u64 = 1_000;
/// RFC 6298 (2.5): a maximum MAY be placed on RTO, at least 60 seconds.
pub const RTO_MAX_MS: u64 = 60_000;
/// RFC 6298 (5.7): after a SYN timed out, RTO is 3 seconds once data flows.
pub const RTO_AFTER_SYN_TIMEOUT_MS: u64 = 3_000;
/// RFC 9293 §3.8.3: give up on a SYN only after at least 3 minutes
/// (MUST-23), on other segments after at least 100 seconds (SHLD-11).
pub const R2_SYN_MS: u64 = 180_000;
pub const R2_MS: u64 = 100_000;
/// Segments kept for the sequence diagram (in-flight ones are never dropped).
pub const LOG_MAX: usize = 64;
/// One send() may ask for at most this many full segments, and data
/// queued before ESTABLISHED is capped at the same.
pub const SEND_MAX_SEGMENTS: u32 = 8;
/// Unacknowledged segments a side may have: this model's stand-in for the
/// congestion window it leaves out, so the diagram stays readable.
pub const MAX_UNACKED_SEGMENTS: usize = 16;
/// The one-way delay of the path.
pub const DELAY_MS: Bound<u32> = Bound::new("one-way delay", " ms", 1, 5_000);
/// The MSL, up to RFC 9293 §3.4.2's: "For this specification the MSL is
/// taken to be 2 minutes."
pub const MSL_MS: Bound<u32> = Bound::new("MSL", " ms", 100, 120_000);
pub const MSL_RFC_MS: u32 = MSL_MS.max;
/// The MSS, up to 1500 − 40, an Ethernet path's (RFC 9293 §3.7.1).
pub const MSS: Bound<u32> = Bound::new("MSS", " bytes", 1, 1_460);

/// The two hosts: the client on the left of the diagram, the server on the right.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Side {
    Client,
    Server,
}

impl Side {
    pub fn other(self) -> Side {
        match self {
            Side::Client => Side::Server,
            Side::Server => Side::Client,
        }
    }
    pub fn name(self) -> &'static str {
        match self {
            Side::Client => "client",
            Side::Server => "server",
        }
    }
}

/// RFC 9293 §3.3.2.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum TcpState {
    Closed,
    Listen,
    SynSent,
    SynReceived,
    Established,
    FinWait1,
    FinWait2,
    CloseWait,
    Closing,
    LastAck,
    TimeWait,
}

impl TcpState {
    pub fn label(self) -> &'static str {
        match self {
            TcpState::Closed => "CLOSED",
            TcpState::Listen => "LISTEN",
            TcpState::SynSent => "SYN-SENT",
            TcpState::SynReceived => "SYN-RECEIVED",
            TcpState::Established => "ESTABLISHED",
            TcpState::FinWait1 => "FIN-WAIT-1",
            TcpState::FinWait2 => "FIN-WAIT-2",
            TcpState::CloseWait => "CLOSE-WAIT",
            TcpState::Closing => "CLOSING",
            TcpState::LastAck => "LAST-ACK",
            TcpState::TimeWait => "TIME-WAIT",
        }
    }

    /// The states in which both ISNs are known (RFC 9293 §3.5 lists the
    /// synchronized states).
    pub fn synchronized(self) -> bool {
        !matches!(
            self,
            TcpState::Closed | TcpState::Listen | TcpState::SynSent | TcpState::SynReceived
        )
    }

    /// A TCB with sequence numbers exists.
    pub fn has_connection(self) -> bool {
        !matches!(self, TcpState::Closed | TcpState::Listen)
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct HandshakeConfig {
    pub client_isn: u32,
    pub server_isn: u32,
    /// One-way delay of the link.
    pub delay_ms: u32,
    pub msl_ms: u32,
    pub mss: u32,
    /// The server starts in LISTEN (a passive OPEN already made).
    pub listen: bool,
}

impl Default for HandshakeConfig {
    fn default() -> Self {
        HandshakeConfig {
            // The ISNs of RFC 9293's figures: 100 and 300.
            client_isn: 100,
            server_isn: 300,
            // A teaching value: 50 ms each way, a 100 ms round trip.
            delay_ms: 50,
            msl_ms: MSL_RFC_MS,
            mss: MSS.max,
            listen: true,
        }
    }
}

/// A segment on the retransmission queue: it occupies sequence space
/// (data, SYN or FIN) and is not yet acknowledged.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Outstanding {
    pub seq: u32,
    /// Data bytes.
    pub len: u32,
    /// Control bits as first sent (SYN, FIN, PSH; ACK is added when due).
    pub flags: u8,
    pub first_sent_ms: u64,
    pub retransmitted: bool,
}

impl Outstanding {
    /// SEG.LEN: data plus one for a SYN and one for a FIN (RFC 9293 §3.4).
    pub fn seq_len(&self) -> u32 {
        self.len + u32::from(self.flags & SYN != 0) + u32::from(self.flags & FIN != 0)
    }
}

/// One endpoint's TCB and timers. Variable names follow RFC 9293 §3.3.1.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Endpoint {
    pub state: TcpState,
    /// Reached SYN-RECEIVED from LISTEN (RFC 9293 §3.5, MUST-11).
    pub passive: bool,
    pub iss: u32,
    pub irs: u32,
    pub snd_una: u32,
    pub snd_nxt: u32,
    pub rcv_nxt: u32,
    /// Bytes send() handed over before ESTABLISHED (RFC 9293 §3.10.2).
    pub queued: u32,
    /// CLOSE issued in SYN-RECEIVED with data queued (RFC 9293 §3.10.4).
    pub close_queued: bool,
    /// The retransmission queue, oldest first.
    pub rtx: Vec<Outstanding>,
    /// Out-of-order segments held for later (RFC 9293 §3.10.7.4, SHLD-31).
    pub held: Vec<Held>,
    pub rto_ms: u64,
    pub srtt_ms: Option<u64>,
    pub rttvar_ms: u64,
    /// The segment being timed: the sequence number that acknowledges it
    /// and when it was sent (one sample per round trip, RFC 6298 §3).
    pub rtt_probe: Option<(u32, u64)>,
    /// When the retransmission timer expires.
    pub rtx_timer_ms: Option<u64>,
    /// When TIME-WAIT ends (2·MSL after it began or was restarted).
    pub time_wait_until_ms: Option<u64>,
    /// A SYN (or SYN,ACK) timed out on this connection (RFC 6298 5.7).
    pub syn_timed_out: bool,
    pub bytes_sent: u64,
    pub bytes_received: u64,
    pub fin_received: bool,
    /// The first ISS this host chose and when: later ones follow a clock
    /// from there (RFC 9293 §3.4.1). It survives the TCB.
    pub isn_clock: Option<(u32, u64)>,
    /// Counts the connections this host has begun (each new ISS); it
    /// survives the TCB. With `peer_incarnation` it is the model's own
    /// bookkeeping, unknown to real TCP: which incarnation of the peer this
    /// TCB synchronized with, so the invariants never confuse a connection
    /// with an earlier one that happened to reuse its ISN (RFC 9293 §3.4.3).
    pub incarnation: u32,
    pub peer_incarnation: Option<u32>,
    /// Why the last connection ended, for the picture.
    pub ended: Option<Ending>,
}

/// A data or FIN segment that arrived ahead of RCV.NXT.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Held {
    pub seq: u32,
    pub ack: u32,
    pub flags: u8,
    pub len: u32,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Ending {
    Closed,
    Reset,
    Refused,
    TimedOut,
    Crashed,
}

/// What became of a segment.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Fate {
    InFlight,
    /// The learner dropped it.
    Dropped,
    /// The receiver acted on it.
    Accepted,
    /// The receiver discarded it (old duplicate, unacceptable, or ignored
    /// in its state), perhaps answering with an ACK or a RST.
    Discarded,
}

/// A segment on the timeline.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Segment {
    pub id: u32,
    pub from: Side,
    pub seq: u32,
    /// Meaningful only with the ACK flag.
    pub ack: u32,
    /// Header bits, as in [`crate::net::wire::tcp`].
    pub flags: u8,
    /// Data bytes (Wireshark's "Len").
    pub len: u32,
    pub sent_ms: u64,
    pub arrives_ms: u64,
    pub fate: Fate,
    pub retransmission: bool,
    /// The sender's incarnation, and the peer incarnation its ACK refers
    /// to (bookkeeping for the invariant that no byte is acknowledged
    /// before it was sent).
    pub sender_incarnation: u32,
    pub acks_incarnation: Option<u32>,
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Counters {
    pub segments: u32,
    pub dropped: u32,
    pub retransmissions: u32,
    pub resets: u32,
    pub crashes: u32,
    /// Connections given up after R2 (RFC 9293 §3.8.3).
    pub timeouts: u32,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Handshake {
    pub config: HandshakeConfig,
    pub now_ms: u64,
    pub client: Endpoint,
    pub server: Endpoint,
    /// The sequence diagram, oldest first (capped at [`LOG_MAX`]).
    pub segments: Vec<Segment>,
    pub next_id: u32,
    pub counters: Counters,
    /// Each state change, oldest first (capped at [`LOG_MAX`]): when, which
    /// side, the state it entered. The sequence diagram writes them beside
    /// the lanes.
    pub changes: Vec<Change>,
}

/// A side entered a state at a time.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Change {
    pub at_ms: u64,
    pub side: Side,
    pub state: TcpState,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum HandshakeAction {
    /// OPEN, passive: wait for a SYN (RFC 9293 §3.10.1).
    PassiveOpen(Side),
    /// OPEN, active: send a SYN.
    ActiveOpen(Side),
    /// SEND this many bytes (§3.10.2).
    Send { side: Side, bytes: u32 },
    /// CLOSE: no more data from this side (§3.10.4).
    Close(Side),
    /// The host reboots and loses the connection (§3.5.1).
    Crash(Side),
    /// Break it: the segment with this id is lost.
    Drop { id: u32 },
    /// Time moves to the next arrival or timer, which happens.
    Advance,
}

pub(crate) use crate::net::wire::tcp::{ACK, FIN, PSH, RST, SYN};

impl Endpoint {
    fn closed() -> Self {
        Endpoint {
            state: TcpState::Closed,
            passive: false,
            iss: 0,
            irs: 0,
            snd_una: 0,
            snd_nxt: 0,
            rcv_nxt: 0,
            queued: 0,
            close_queued: false,
            rtx: Vec::new(),
            held: Vec::new(),
            rto_ms: RTO_INITIAL_MS,
            srtt_ms: None,
            rttvar_ms: 0,
            rtt_probe: None,
            rtx_timer_ms: None,
            time_wait_until_ms: None,
            syn_timed_out: false,
            bytes_sent: 0,
            bytes_received: 0,
            fin_received: false,
            isn_clock: None,
            incarnation: 0,
            peer_incarnation: None,
            ended: None,
        }
    }

    /// Deletes the TCB: back to CLOSED (or LISTEN), keeping only the ISN
    /// clock, which outlives connections.
    fn delete_tcb(&mut self, to: TcpState, why: Ending) {
        let (clock, incarnation) = (self.isn_clock, self.incarnation);
        *self = Endpoint::closed();
        self.state = to;
        self.isn_clock = clock;
        self.incarnation = incarnation;
        self.ended = Some(why);
    }
}

impl Handshake {
    pub fn endpoint(&self, side: Side) -> &Endpoint {
        match side {
            Side::Client => &self.client,
            Side::Server => &self.server,
        }
    }

    fn ep(&mut self, side: Side) -> &mut Endpoint {
        match side {
            Side::Client => &mut self.client,
            Side::Server => &mut self.server,
        }
    }

    /// Puts a segment on the link; it arrives one delay later.
    fn emit(
        &mut self,
        from: Side,
        seq: u32,
        ack: Option<u32>,
        flags: u8,
        len: u32,
        retransmission: bool,
    ) -> u32 {
        let id = self.next_id;
        self.next_id += 1;
        self.counters.segments += 1;
        let ep = self.endpoint(from);
        let sender_incarnation = ep.incarnation;
        let acks_incarnation = ack.and(ep.peer_incarnation);
        self.segments.push(Segment {
            id,
            from,
            seq,
            ack: ack.unwrap_or(0),
            flags: flags | if ack.is_some() { ACK } else { 0 },
            len,
            sent_ms: self.now_ms,
            arrives_ms: self.now_ms + u64::from(self.config.delay_ms),
            fate: Fate::InFlight,
            retransmission,
            sender_incarnation,
            acks_incarnation,
        });
        while self.segments.len() > LOG_MAX {
            match self.segments.iter().position(|s| s.fate != Fate::InFlight) {
                Some(i) => {
                    self.segments.remove(i);
                }
                None => break,
            }
        }
        id
    }
}

impl Model for Handshake {
    type Config = HandshakeConfig;
    type Action = HandshakeAction;

    fn validate(c: &HandshakeConfig) -> Result<(), String> {
        DELAY_MS.check(c.delay_ms)?;
        MSL_MS.check(c.msl_ms)?;
        if c.msl_ms < c.delay_ms {
            return Err(
                "The MSL, the longest a segment can live, must be at least the one-way delay."
                    .into(),
            );
        }
        MSS.check(c.mss)?;
        Ok(())
    }

    fn new(c: &HandshakeConfig) -> Self {
        let mut server = Endpoint::closed();
        if c.listen {
            server.state = TcpState::Listen;
        }
        Handshake {
            config: c.clone(),
            now_ms: 0,
            client: Endpoint::closed(),
            server,
            segments: Vec::new(),
            next_id: 1,
            counters: Counters::default(),
            changes: Vec::new(),
        }
    }

    fn intro(&self) -> Event {
        self.intro_event()
    }

    fn apply(&mut self, action: &HandshakeAction) -> Outcome {
        let before = [self.client.state, self.server.state];
        let out = self.act(action)?;
        for (side, was) in [Side::Client, Side::Server].into_iter().zip(before) {
            let state = self.endpoint(side).state;
            if state != was {
                self.changes.push(Change {
                    at_ms: self.now_ms,
                    side,
                    state,
                });
            }
        }
        if self.changes.len() > LOG_MAX {
            self.changes.remove(0);
        }
        Ok(out)
    }

    fn next_auto(&self) -> Result<HandshakeAction, Refusal> {
        self.next_step()
    }

    fn check(&self) -> Result<(), String> {
        self.check_invariants()
    }

    fn status(&self) -> Vec<Figure> {
        self.figures()
    }

    fn why(&self) -> Vec<String> {
        self.why_sentences()
    }

    fn leaves_out() -> &'static str {
        "Leaves out: TCP options (MSS, window scale, SACK, timestamps), flow and congestion control, delayed ACKs, keep-alives and Linux's FIN-WAIT-2 timeout, the listening socket that outlives each accepted connection, and ICMP."
    }
}

impl Handshake {
    fn act(&mut self, action: &HandshakeAction) -> Outcome {
        match *action {
            HandshakeAction::PassiveOpen(side) => self.passive_open(side),
            HandshakeAction::ActiveOpen(side) => self.active_open(side),
            HandshakeAction::Send { side, bytes } => self.send(side, bytes),
            HandshakeAction::Close(side) => self.close(side),
            HandshakeAction::Crash(side) => self.crash(side),
            HandshakeAction::Drop { id } => self.drop_segment(id),
            HandshakeAction::Advance => self.advance(),
        }
    }

    fn next_step(&self) -> Result<HandshakeAction, Refusal> {
        if self.next_event().is_some() {
            return Ok(HandshakeAction::Advance);
        }
        if self.client.state == TcpState::Closed && self.server.state == TcpState::Listen {
            return Ok(HandshakeAction::ActiveOpen(Side::Client));
        }
        Err(Refusal::new(
            "Nothing is in flight and no timer is running: send data, close a side, or open a connection.",
        ))
    }
}

#[cfg(test)]
mod tests;
