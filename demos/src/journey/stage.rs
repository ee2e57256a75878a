//! The stages of the journey: what each is called, its stable key, and the
//! demo whose model it comes from.

use serde::{Deserialize, Serialize};

/// One stage of the path, in the order a message meets them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum StageId {
    /// `send()`: the system call and the copy into a kernel buffer.
    Send,
    /// TCP cuts the message at the MSS and builds each segment.
    Segment,
    /// The qdisc: straight through, or a wait for its owner or NET_TX.
    Qdisc,
    /// CTPIO: the CPU writes the frame into the NIC itself.
    Pio,
    /// The driver writes the TX descriptor and rings the doorbell (MMIO).
    Doorbell,
    /// The NIC reads the descriptor and the payload over PCIe.
    Fetch,
    /// The frame's bits on the wire, preamble and gap included.
    Wire,
    /// The switch: its queue, then store-and-forward or cut-through.
    Switch,
    /// The receiving NIC writes the frame and the descriptor over PCIe.
    RxDma,
    /// Interrupt moderation: the NIC holds the interrupt back.
    Moderation,
    /// MSI-X delivery and the hard-IRQ handler.
    Interrupt,
    /// The NAPI poll: driver, IP and TCP, per frame.
    Napi,
    /// GRO merges the segments of the message into one.
    Gro,
    /// The socket: the reader's wakeup and `recvmsg()`'s copy.
    Socket,
    /// A poll-mode application finds the message in its own ring or memory.
    AppPoll,
    /// Break it: a dropped frame, its retransmission timer and the resend.
    Retransmit,
}

impl StageId {
    pub const ALL: [StageId; 16] = [
        StageId::Send,
        StageId::Segment,
        StageId::Qdisc,
        StageId::Pio,
        StageId::Doorbell,
        StageId::Fetch,
        StageId::Wire,
        StageId::Switch,
        StageId::Retransmit,
        StageId::RxDma,
        StageId::Moderation,
        StageId::Interrupt,
        StageId::Napi,
        StageId::Gro,
        StageId::Socket,
        StageId::AppPoll,
    ];

    /// The stable key of the stage's shape and of narration focus marks.
    pub fn key(self) -> &'static str {
        match self {
            StageId::Send => "stage-send",
            StageId::Segment => "stage-segment",
            StageId::Qdisc => "stage-qdisc",
            StageId::Pio => "stage-pio",
            StageId::Doorbell => "stage-doorbell",
            StageId::Fetch => "stage-fetch",
            StageId::Wire => "stage-wire",
            StageId::Switch => "stage-switch",
            StageId::Retransmit => "stage-retransmit",
            StageId::RxDma => "stage-rx-dma",
            StageId::Moderation => "stage-moderation",
            StageId::Interrupt => "stage-interrupt",
            StageId::Napi => "stage-napi",
            StageId::Gro => "stage-gro",
            StageId::Socket => "stage-socket",
            StageId::AppPoll => "stage-app-poll",
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            StageId::Send => "send() syscall + copy",
            StageId::Segment => "TCP segmentation at the MSS",
            StageId::Qdisc => "qdisc",
            StageId::Pio => "CPU writes the frame (CTPIO)",
            StageId::Doorbell => "TX descriptor + doorbell (MMIO)",
            StageId::Fetch => "NIC fetches descriptor + payload (PCIe)",
            StageId::Wire => "serialisation on the wire",
            StageId::Switch => "the switch",
            StageId::Retransmit => "drop, retransmission timer, resend",
            StageId::RxDma => "receiving NIC: DMA + descriptor write-back",
            StageId::Moderation => "interrupt moderation",
            StageId::Interrupt => "MSI-X + hard IRQ",
            StageId::Napi => "NAPI poll: driver, IP, TCP",
            StageId::Gro => "GRO",
            StageId::Socket => "socket: wakeup + recvmsg()",
            StageId::AppPoll => "application polls for it",
        }
    }

    /// Whether a CPU core does the work (not the NIC, the bus or the network).
    pub fn cpu(self) -> bool {
        matches!(
            self,
            StageId::Send
                | StageId::Segment
                | StageId::Qdisc
                | StageId::Pio
                | StageId::Doorbell
                | StageId::Interrupt
                | StageId::Napi
                | StageId::Gro
                | StageId::Socket
                | StageId::AppPoll
        )
    }
}
