use super::*;
use SpscAction::*;

fn ring(capacity: usize, fault: Fault, cached: bool) -> Spsc {
    Spsc::new(&SpscConfig {
        capacity,
        fault,
        cached,
    })
}

fn play(s: &mut Spsc, actions: &[SpscAction]) -> Vec<Event> {
    let mut events = Vec::new();
    for a in actions {
        events.extend(s.apply(a).unwrap_or_else(|r| panic!("{a:?}: {}", r.reason)));
        s.check().unwrap();
    }
    events
}

/// Presses Step until the model stops or `limit` steps have run.
fn autoplay(s: &mut Spsc, limit: usize) {
    for _ in 0..limit {
        let Ok(a) = s.next_auto() else { return };
        play(s, &[a]);
    }
}

fn figure(s: &Spsc, key: &str) -> String {
    s.status().into_iter().find(|f| f.key == key).unwrap().value
}

#[test]
fn one_item_travels_slot_first_then_tail_and_arrives_intact() {
    let mut s = ring(4, Fault::None, false);
    play(&mut s, &[Producer, Producer, Producer]);
    assert_eq!(
        s.buffers[PRODUCER].stores(),
        2,
        "slot and tail both buffered"
    );
    // The consumer cannot see the item while tail is still buffered.
    let refusal = s.apply(&Consumer).unwrap_err();
    assert!(refusal
        .reason
        .contains("tail store is still in its store buffer"));
    // The release tail store cannot overtake the slot store.
    let refusal = s.apply(&DrainProducer(1)).unwrap_err();
    assert!(refusal.reason.contains("release"), "{}", refusal.reason);
    play(&mut s, &[DrainProducer(0), DrainProducer(0)]);
    assert_eq!(s.memory[TAIL_LOC as usize], 1);
    assert_eq!(s.memory[FIRST_SLOT as usize], 1);
    let events = play(&mut s, &[Consumer, Consumer, Consumer]);
    assert_eq!(events[1].tone, crate::model::Tone::Done);
    assert_eq!(s.received, [1]);
    assert_eq!(figure(&s, "occupancy"), "0/4");
    assert_eq!(figure(&s, "head"), "0", "head still buffered");
    play(&mut s, &[DrainConsumer]);
    assert_eq!(figure(&s, "head"), "1");
    assert!(s.damage.is_empty());
}

#[test]
fn a_full_ring_refuses_the_producer_until_head_is_visible() {
    let mut s = ring(2, Fault::None, false);
    for _ in 0..2 {
        play(
            &mut s,
            &[
                Producer,
                Producer,
                Producer,
                DrainProducer(0),
                DrainProducer(0),
            ],
        );
    }
    assert_eq!(figure(&s, "occupancy"), "2/2");
    let before = s.clone();
    let refusal = s.apply(&Producer).unwrap_err();
    assert_eq!(
        refusal.reason,
        "The ring looks full to the producer (tail 2 − head 0 = 2): let the consumer take an item first."
    );
    assert_eq!(s, before);
    play(&mut s, &[Consumer, Consumer, Consumer]);
    assert!(s
        .apply(&Producer)
        .unwrap_err()
        .reason
        .contains("newer head is still in its store buffer"));
    play(&mut s, &[DrainConsumer, Producer]);
    assert_eq!(s.producer, ProducerStep::WriteSlot);
}

#[test]
fn a_relaxed_tail_overtakes_the_slot_and_the_consumer_reads_stale_data() {
    let mut s = ring(4, Fault::None, false);
    play(&mut s, &[SetFault(Fault::RelaxedTail)]);
    let events = play(&mut s, &[Producer, Producer, Producer]);
    assert_eq!(events[2].tone, crate::model::Tone::Warn);
    // The tail store leaves first; the slot store is still buffered.
    let events = play(&mut s, &[DrainProducer(1)]);
    assert!(events[0].text.contains("slot 0 still holds 0"));
    let events = play(&mut s, &[Consumer, Consumer]);
    assert_eq!(events[1].tone, crate::model::Tone::Fault);
    assert_eq!(
        s.damage,
        [Damage {
            item: 0,
            slot: 0,
            read: 0
        }]
    );
    assert!(s.damage[0].stale());
    assert!(s.next_auto().unwrap_err().reason.contains("Play stops"));
    assert_eq!(figure(&s, "damage"), "1");
}

#[test]
fn play_shows_the_relaxed_tail_break_on_its_own() {
    let mut s = ring(4, Fault::RelaxedTail, false);
    autoplay(&mut s, 50);
    assert_eq!(s.damage.len(), 1);
    assert!(s.damage[0].stale());
}

#[test]
fn publishing_head_early_lets_the_producer_overwrite_the_slot() {
    let mut s = ring(4, Fault::EarlyHead, false);
    autoplay(&mut s, 200);
    let d = s.damage[0];
    assert!(!d.stale());
    assert_eq!((d.item, d.slot), (0, 0));
    assert_eq!(
        d.read, 5,
        "item 4 (value 5) took slot 0 before item 0 was read"
    );
    assert!(damage_text_of(&s).contains("reused the slot"));
}

fn damage_text_of(s: &Spsc) -> String {
    steps::damage_text(s.damage.last().unwrap())
}

#[test]
fn the_correct_protocol_plays_on_without_damage() {
    for cached in [false, true] {
        let mut s = ring(3, Fault::None, cached);
        autoplay(&mut s, 400);
        assert!(s.damage.is_empty());
        assert!(s.dequeued >= 20, "{}", s.dequeued);
        assert!(s.next_auto().is_ok());
    }
}

#[test]
fn cached_indices_nearly_halve_the_line_transfers_of_play() {
    // Play alternates: the consumer takes each item as soon as it is
    // visible. Without a cache both sides read the other's index on every
    // operation and each read finds the line freshly written by the other
    // core; with a cache the producer reads head only when its copy says
    // full (once per 4 items here), so almost only the tail line moves.
    let run = |cached: bool| {
        let mut s = ring(4, Fault::None, cached);
        while s.dequeued < 8 {
            let a = s.next_auto().unwrap();
            play(&mut s, &[a]);
        }
        assert_eq!(
            s.uncached_lines.moves,
            [7, 8],
            "the same schedule, uncached"
        );
        (s.index_reads, s.lines.moves)
    };
    assert_eq!(run(false), (16, [7, 8]));
    assert_eq!(run(true), (9, [1, 8]));
}

#[test]
fn a_cached_copy_skips_the_read_until_it_says_full() {
    let mut s = ring(2, Fault::None, true);
    let events = play(&mut s, &[Producer]);
    assert!(events[0].text.contains("no need to read head"));
    assert_eq!(s.index_reads, 0);
    play(
        &mut s,
        &[Producer, Producer, DrainProducer(0), DrainProducer(0)],
    );
    play(
        &mut s,
        &[
            Producer,
            Producer,
            Producer,
            DrainProducer(0),
            DrainProducer(0),
        ],
    );
    // Two items, copy of head still 0: full; the consumer frees one.
    play(&mut s, &[Consumer, Consumer, Consumer, DrainConsumer]);
    assert_eq!(s.cached_tail, 2);
    // The consumer's copy of tail says one more item waits: no read.
    let events = play(&mut s, &[Consumer]);
    assert!(events[0].text.contains("no need to read tail"));
    // The producer's copy says full, so it reads head, and the line moves.
    let events = play(&mut s, &[Producer]);
    assert!(events[0].text.contains("reads head = 1"));
    assert!(events[0].text.contains("head line moves"));
    assert_eq!(s.lines.moves[HEAD], 1);
    assert_eq!(s.index_reads, 2);
}

#[test]
fn switching_protocol_or_cache_restarts_and_repeats_are_refused() {
    let mut s = ring(4, Fault::None, false);
    play(&mut s, &[Producer, Producer]);
    assert!(s.apply(&SetFault(Fault::None)).is_err());
    assert!(s.apply(&SetCached(false)).is_err());
    play(&mut s, &[SetCached(true)]);
    assert!(s.cached);
    assert!(s.buffers[PRODUCER].is_empty());
    assert_eq!(s.producer, ProducerStep::CheckSpace);
    assert!(s.apply(&DrainProducer(0)).is_err());
    assert!(s.apply(&DrainConsumer).is_err());
    assert!(s.apply(&DrainProducer(9)).is_err());
}

#[test]
fn capacity_is_bounded() {
    for bad in [0, 1, 17, usize::MAX] {
        assert!(Spsc::validate(&SpscConfig {
            capacity: bad,
            ..SpscConfig::default()
        })
        .is_err());
    }
    assert!(Spsc::validate(&SpscConfig::default()).is_ok());
    assert_eq!(ring(16, Fault::None, false).memory.len(), 18);
    assert_eq!(
        Spsc::validate(&SpscConfig {
            capacity: 17,
            ..SpscConfig::default()
        }),
        Err("The capacity is 2 to 16 slots; 17 slots is out of range.".into())
    );
}

/// Issue 30: the producer's read of head is an acquire load, paired with
/// the consumer's release store of head (folly ProducerConsumerQueue::write).
#[test]
fn the_producer_reads_head_with_an_acquire_load() {
    let mut s = ring(4, Fault::None, false);
    let events = play(&mut s, &[Producer]);
    assert_eq!(
        events[0].text,
        "The producer reads head = 0 with an acquire load: 4 free slots."
    );
    assert_eq!(s.order(IndexAccess::ProducerReadsHead), "acquire");
    assert_eq!(s.order(IndexAccess::ConsumerWritesHead), "release");
    assert!(s.why()[1].contains("the producer's acquire load of head"));
    let relaxed = ring(4, Fault::RelaxedTail, false);
    assert_eq!(relaxed.order(IndexAccess::ProducerWritesTail), "relaxed");
    assert_eq!(relaxed.order(IndexAccess::ProducerReadsHead), "acquire");
}
