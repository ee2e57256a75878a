//! What the page prints about the ring: slot labels, status figures and
//! "why it matters".

use super::*;
use crate::text::{decimal, plural};

impl DescriptorRing {
    /// Empty, full, or how many descriptors are in use. One slot always stays
    /// FREE, so a full ring holds RING_SIZE - 1.
    pub fn fill_label(&self) -> String {
        let in_use = RING_SIZE - self.count(SlotState::Free);
        match in_use {
            0 => "empty".to_string(),
            n if n == RING_SIZE - 1 => format!("full ({n} of {RING_SIZE})"),
            n => format!("{n} of {} in use", RING_SIZE - 1),
        }
    }

    /// The slot as a word: FREE, POSTED (not yet published), NIC (between
    /// HEAD and the NIC's TAIL), DD (written back), SENT (TX, consumed
    /// without RS, so no DD in memory).
    pub fn slot_label(&self, i: usize) -> &'static str {
        match self.slots[i].state {
            SlotState::Free => "FREE",
            SlotState::Posted if self.is_published(i) => "NIC",
            SlotState::Posted => "POSTED",
            SlotState::Done if self.memory[i].dd => "DD",
            SlotState::Done => "SENT",
        }
    }

    pub(super) fn figures(&self) -> Vec<Figure> {
        let c = &self.counters;
        let nic = (0..RING_SIZE)
            .filter(|&i| self.slot_label(i) == "NIC")
            .count();
        let mut figures = vec![
            Figure::new(
                "mode",
                "mode",
                match self.config.direction {
                    Direction::Rx => "RX",
                    Direction::Tx => "TX",
                },
            ),
            Figure::new("fill", "ring", self.fill_label()),
            Figure::new("head", "HEAD", self.head),
            Figure::new("tail", "TAIL", self.tail),
            Figure::new("doorbell", "NIC's TAIL", self.doorbell),
            Figure::new("free", "FREE", self.count(SlotState::Free)),
            Figure::new("nic", "NIC's", nic),
            Figure::new("pending", "stores in flight", self.store_buffer.len()),
        ];
        let delivered = match self.config.direction {
            Direction::Rx => "frames to stack",
            Direction::Tx => "frames sent",
        };
        figures.push(Figure::new("delivered", delivered, self.delivered.len()));
        if self.config.direction == Direction::Rx {
            figures.push(Figure::new("missed", "rx_missed", c.rx_missed));
        }
        figures.push(Figure::new(
            "races",
            "racy fetches (torn)",
            format!("{} ({})", c.racy_fetches, c.torn_fetches),
        ));
        figures.push(Figure::new(
            "corrupted",
            "corrupted transfers",
            self.damage.len(),
        ));
        figures
    }

    pub(super) fn why_sentences(&self) -> Vec<String> {
        let c = &self.counters;
        let mut out = Vec::new();
        if c.doorbells > 0 {
            let published = c.fetched as usize + self.published_pending();
            out.push(format!(
                "{} doorbell write{} published {published} descriptor{}: {} per MMIO write. Batching posts behind one doorbell saves PCIe writes.",
                c.doorbells,
                plural(c.doorbells as usize),
                plural(published),
                decimal(published as f64 / f64::from(c.doorbells), 1)
            ));
        } else {
            out.push(
                "No doorbell yet: whatever the driver has posted, the NIC cannot see it.".into(),
            );
        }
        if c.racy_fetches > 0 {
            out.push(format!(
                "Without a barrier, {} fetch{} raced the descriptor stores and {} read a half-written descriptor: most races are won by the stores, which is how this bug survives testing.",
                c.racy_fetches,
                if c.racy_fetches == 1 { "" } else { "es" },
                c.torn_fetches
            ));
        } else if self.relaxed_doorbell {
            out.push("writel_relaxed() orders nothing before the MMIO write: on arm64 the doorbell can overtake the descriptor stores unless the driver issues wmb() itself. On x86 the same race needs a write-combined doorbell mapping.".into());
        } else {
            out.push("writel() waits for every earlier store to memory before its MMIO write, so the NIC never reads a half-written descriptor. An explicit wmb() before it, as ixgbe writes, orders nothing more here.".into());
        }
        if c.read_races > 0 {
            out.push(format!(
                "Without dma_rmb(), {} of {} reap{} during a write-back loaded the length before DD and handed the stack a wrong length.",
                c.torn_reads,
                c.read_races,
                plural(c.read_races as usize)
            ));
        }
        if self.config.direction == Direction::Tx && self.config.rs_every > 1 {
            out.push(format!(
                "RS is set on every {}th descriptor: the NIC writes fewer completions over PCIe, and the driver frees buffers in batches, later.",
                self.config.rs_every
            ));
        }
        out.push(format!(
            "{} more post{} fit. One of the {RING_SIZE} slots always stays empty, so equal indices can only mean an empty ring.",
            self.free_to_post(),
            plural(self.free_to_post())
        ));
        out
    }
}
