//! A running demo with its model type hidden: the app's page, renderer and
//! keyboard are compiled once and drive every demo through [`LiveDemo`].
//!
//! While a demo builds its scene and controls it registers each command
//! with a [`Ui`] and puts the returned [`Slot`] in the picture; the page
//! sends slots back. So scenes and controls are the same plain types for
//! every demo, and only this adapter is generic over the model.

use crate::control::{Control, Handler, Input};
use crate::layout::Layout;
use crate::lesson::{Outline, Reply, Verdict};
use crate::scene::{Kind, Part, Scene, Shape};
use demos::scenario::{decode_look, encode_look, split_link};
use demos::{Figure, Model, NarrationLine, Scenario, Timeline, Tone};
use serde::de::DeserializeOwned;
use serde::Serialize;

/// What a control or a clickable shape does to a demo.
#[derive(Clone, Debug, PartialEq)]
pub enum Command<M: View> {
    /// An action of the model (recorded, undoable, part of the share link).
    Do(M::Action),
    /// Start over with a new configuration (e.g. RX → TX, a new ring size).
    Restart(M::Config),
    /// Look at something else (a stage to edit, an outcome's graph): changes
    /// the picture, not the model, so it is not a step; the link carries it
    /// after the state (see [`View::admit_look`]).
    Look(M::Look),
}

pub use crate::slot::Slot;

/// The commands of one frame, by slot.
pub struct Ui<M: View> {
    handlers: Vec<Handler<Command<M>>>,
    layout: Layout,
}

impl<M: View> Default for Ui<M> {
    fn default() -> Self {
        Ui {
            handlers: Vec::new(),
            layout: Layout::Wide,
        }
    }
}

impl<M: View> Ui<M> {
    pub fn new() -> Self {
        Self::default()
    }

    /// A frame's handlers, for a picture laid out for `layout`.
    pub fn laid_out(layout: Layout) -> Self {
        Ui {
            handlers: Vec::new(),
            layout,
        }
    }

    /// The screen the picture is drawn for: each figure wider than
    /// [`crate::NARROW_WIDTH`] draws its narrow arrangement when this says so.
    pub fn layout(&self) -> Layout {
        self.layout
    }

    /// Registers a handler; its slot goes into the picture.
    pub fn add(&mut self, handler: Handler<Command<M>>) -> Slot {
        self.handlers.push(handler);
        (self.handlers.len() - 1) as Slot
    }

    /// A model action.
    pub fn act(&mut self, action: M::Action) -> Slot {
        self.add(Handler::Fixed(Command::Do(action)))
    }

    /// A restart with a new configuration.
    pub fn restart(&mut self, config: M::Config) -> Slot {
        self.add(Handler::Fixed(Command::Restart(config)))
    }

    /// Looking at something else.
    pub fn look(&mut self, look: M::Look) -> Slot {
        self.add(Handler::Fixed(Command::Look(look)))
    }

    /// A number control: the command for a value, or what is wrong with it.
    pub fn number(
        &mut self,
        command: impl Fn(i64) -> Result<Command<M>, String> + 'static,
    ) -> Slot {
        self.add(Handler::Number(std::rc::Rc::new(command)))
    }

    /// A form: the command for its fields' values, or what is wrong with them.
    pub fn form(
        &mut self,
        command: impl Fn(&[String]) -> Result<Command<M>, String> + 'static,
    ) -> Slot {
        self.add(Handler::Form(std::rc::Rc::new(command)))
    }

    pub fn handler(&self, slot: Slot) -> Option<&Handler<Command<M>>> {
        self.handlers.get(slot as usize)
    }

    /// The looks this frame's controls and shapes offer.
    pub fn looks(&self) -> impl Iterator<Item = &M::Look> {
        self.handlers.iter().filter_map(|h| match h {
            Handler::Fixed(Command::Look(look)) => Some(look),
            _ => None,
        })
    }

    /// The command a slot sends for an input (what the page would do).
    pub fn resolve(&self, slot: Slot, input: &Input) -> Result<Command<M>, String> {
        self.handler(slot)
            .ok_or("That control is no longer on the page.")?
            .resolve(input)
    }
}

/// A demo's picture and controls: plain functions of its model and of what
/// the learner is looking at.
pub trait View: Model + 'static {
    /// What the learner has picked to look at, outside the model (`()` for
    /// most demos). Reset and a restart clear it; a share link carries it
    /// after the state, unless it is the default.
    type Look: Clone
        + Default
        + PartialEq
        + std::fmt::Debug
        + Serialize
        + DeserializeOwned
        + 'static;
    fn scene(&self, look: &Self::Look, ui: &mut Ui<Self>) -> Scene;
    fn controls(&self, look: &Self::Look, ui: &mut Ui<Self>) -> Vec<Control>;

    /// Whether a look read from a share link is one this state can show; if
    /// not, the demo opens at the link's state with the default look and a
    /// notice. By default: the default look, or one the default look's
    /// picture and controls offer (a stage, a line, a switch, one click
    /// away). A demo whose looks combine (a level *and* loads or stores) or
    /// depend on the state says so itself.
    fn admit_look(&self, look: &Self::Look) -> bool {
        *look == Self::Look::default() || {
            let (_, _, ui) = build(self, &Self::Look::default());
            let offered = ui.looks().any(|offered| offered == look);
            offered
        }
    }

    /// The look a share link records for `look`: by default `look` itself. A
    /// demo whose look can outlive what it names (a field of a frame that a
    /// Back took away, which the picture then ignores) gives the look it
    /// draws, so that the link's look is one [`View::admit_look`] admits.
    fn link_look(&self, look: &Self::Look) -> Self::Look {
        look.clone()
    }

    /// The demo's lesson, if it has one (`crate::lesson`).
    fn lesson() -> Option<crate::lesson::Lesson<Self>>
    where
        Self: Sized,
    {
        None
    }
}

/// What the page draws after a change.
#[derive(Clone, Debug, PartialEq)]
pub struct Frame {
    pub scene: Scene,
    pub controls: Vec<Control>,
}

/// A running demo, whatever its model.
pub trait LiveDemo {
    /// The picture and controls of the current state. Slots in the frame stay
    /// valid until the next call.
    fn frame(&mut self) -> Frame;
    /// Uses a control or clicks a shape. `Err` says why nothing happened
    /// (a bad value, or the model's refusal, which is also narrated).
    fn send(&mut self, slot: Slot, input: &Input) -> Result<(), String>;
    /// Checks a form's fields as they are typed, without sending.
    fn check(&self, slot: Slot, input: &Input) -> Result<(), String>;
    /// One automatic step; false when the model is idle (and said why).
    fn step(&mut self) -> bool;
    /// Takes the next step and draws its frame on a copy, leaving this demo
    /// as it was, and gives that frame (none if there is no next step). The
    /// page does it once, when the browser is idle after the demo opens, and
    /// draws the frame out of sight: the code a Step runs, the model's and
    /// the page's, is then compiled before the learner first clicks (a
    /// browser compiles WebAssembly functions lazily, on their first call,
    /// which made a page's first Step the slowest).
    fn rehearse(&self) -> Option<Frame>;
    fn back(&mut self) -> bool;
    fn reset(&mut self);
    fn can_back(&self) -> bool;
    fn step_count(&self) -> usize;
    fn narration(&self) -> &[NarrationLine];
    fn status(&self) -> Vec<Figure>;
    fn why(&self) -> Vec<String>;
    fn leaves_out(&self) -> &'static str;
    /// The state, and the look unless it is the default, as a share-link
    /// value (`v1.<state>` or `v1.<state>.<look>`).
    fn link(&self) -> String;
    /// Goes to the state of share-link value `link`, as if opened from it.
    /// Unlike opening a page, a link that does not restore whole (its state
    /// or its look) changes nothing, and the error says why.
    fn load(&mut self, link: &str) -> Result<(), String>;
    /// Lays out the following frames for a screen of this kind.
    fn set_layout(&mut self, layout: Layout);
    /// The screen the frames are laid out for.
    fn layout(&self) -> Layout;
    /// The demo's lesson as plain data, if it has one.
    fn lesson(&self) -> Option<Outline>;
    /// Opens stop `n` (from 0) of the lesson: with `replay`, the demo's
    /// state becomes the stop's (its scenario replayed); either way the
    /// stop's focus key is highlighted in the following frames. False when
    /// there is no such stop or its state would not replay.
    fn open_stop(&mut self, n: usize, replay: bool) -> bool;
    /// Leaves the lesson: its focus key is no longer highlighted.
    fn close_lesson(&mut self);
    /// Whether stop `n`'s task is done in the current state (`None`: the
    /// stop has no task).
    fn task_done(&self, n: usize) -> Option<bool>;
    /// Grades a reply to stop `n`'s question, against the model at the
    /// stop's state (`None`: the stop asks nothing).
    fn grade(&self, n: usize, reply: &Reply) -> Option<Verdict>;
}

/// Opens a demo from a share-link value (`v1.<state>` or `v1.<state>.<look>`).
/// A bad state opens the defaults, a bad look the link's state with the
/// default look; either way the second value is the notice to show.
pub fn open<M: View>(link: Option<&str>) -> (Box<dyn LiveDemo>, Option<String>) {
    let (timeline, look, notice) = match link {
        None => (
            Timeline::new(M::Config::default()),
            M::Look::default(),
            None,
        ),
        Some(text) => {
            let (state, look) = split_link(text);
            match Scenario::<M>::decode(state).and_then(|s| Timeline::from_scenario(&s)) {
                Ok(timeline) => {
                    let (look, notice) = match look.map(|text| read_look(timeline.model(), text)) {
                        None => (M::Look::default(), None),
                        Some(Ok(look)) => (look, None),
                        Some(Err(why)) => (M::Look::default(), Some(look_notice(&why))),
                    };
                    (timeline, look, notice)
                }
                Err(error) => (
                    Timeline::new(M::Config::default()),
                    M::Look::default(),
                    Some(state_notice(&error.to_string())),
                ),
            }
        }
    };
    (
        Box::new(Live {
            timeline,
            look,
            ui: Ui::new(),
            layout: Layout::Wide,
            focus: None,
        }),
        notice,
    )
}

/// A link's look part, if the link's state can show it; else why not.
fn read_look<M: View>(model: &M, text: &str) -> Result<M::Look, String> {
    let look = decode_look::<M::Look>(text).map_err(|e| e.to_string())?;
    if model.admit_look(&look) {
        Ok(look)
    } else {
        Err("it names something this state does not show".to_string())
    }
}

/// `text` as the end of a sentence: one full stop, whatever it ended with.
fn sentence_end(text: &str) -> String {
    format!("{}.", text.trim_end().trim_end_matches('.').trim_end())
}

/// The notice for a link whose state could not be restored.
fn state_notice(error: &str) -> String {
    format!(
        "This link could not be restored: {} The demo opened with its defaults.",
        sentence_end(error)
    )
}

/// The notice for a link whose state opened but whose look did not.
fn look_notice(error: &str) -> String {
    format!(
        "This link's choice of what to show could not be restored: {} The demo opened in the link's state, with its default view.",
        sentence_end(error)
    )
}

struct Live<M: View> {
    timeline: Timeline<M>,
    look: M::Look,
    /// The commands behind the slots of the last frame.
    ui: Ui<M>,
    /// The screen the next frame is drawn for.
    layout: Layout,
    /// The focus key of the open lesson stop.
    focus: Option<&'static str>,
}

impl<M: View> Live<M> {
    /// Whether a form's typed values would be taken, without taking them.
    fn try_input(&self, slot: Slot, input: &Input) -> Result<(), String> {
        match self.ui.resolve(slot, input)? {
            Command::Do(action) => match self.timeline.model().refusal(&action) {
                Some(refusal) => Err(refusal.reason),
                None => Ok(()),
            },
            Command::Restart(config) => M::validate(&config),
            Command::Look(_) => Ok(()),
        }
    }

    /// Why the model would refuse a fixed action now, if it would.
    fn refusal(&self, slot: Slot) -> Option<String> {
        match self.ui.handler(slot)? {
            Handler::Fixed(Command::Do(action)) => {
                self.timeline.model().refusal(action).map(|r| r.reason)
            }
            _ => None,
        }
    }

    fn run(&mut self, command: Command<M>) -> Result<(), String> {
        match command {
            Command::Do(action) => self.timeline.apply(action).map_err(|r| r.reason),
            Command::Restart(config) => {
                self.timeline = Timeline::try_new(config)?;
                self.look = M::Look::default();
                Ok(())
            }
            Command::Look(look) => {
                self.look = look;
                Ok(())
            }
        }
    }
}

/// A form's error that names a line of what was typed, with that line
/// quoted under it (see [`crate::excerpt`]).
fn at_the_line(message: String, input: &Input) -> String {
    let Input::Fields(values) = input else {
        return message;
    };
    values
        .iter()
        .find_map(|text| crate::excerpt::point_at_line(&message, text))
        .unwrap_or(message)
}

/// Focus keys of the latest step's narration.
fn in_focus(lines: &[NarrationLine], step: usize) -> Vec<&str> {
    lines
        .iter()
        .rev()
        .take_while(|l| l.step == step)
        .filter(|l| l.tone != Tone::Refused)
        .flat_map(|l| l.focus.iter().map(String::as_str))
        .collect()
}

fn mark_focus(shape: &mut Shape, focus: &[&str]) {
    if shape.focus.as_deref().is_some_and(|f| focus.contains(&f)) {
        shape.class.push_str(" focus");
    }
    if let Kind::Group { children, .. } = &mut shape.kind {
        for child in children {
            mark_focus(child, focus);
        }
    }
}

/// Marks what the latest narration points at.
fn mark_scene(scene: &mut Scene, focus: &[&str]) {
    let hit = |f: &Option<String>| f.as_deref().is_some_and(|f| focus.contains(&f));
    for part in &mut scene.parts {
        match part {
            Part::Figure(f) => f.shapes.iter_mut().for_each(|s| mark_focus(s, focus)),
            Part::Table(t) => t
                .rows
                .iter_mut()
                .filter(|r| hit(&r.focus))
                .for_each(|r| r.class.push_str(" focus")),
            Part::List(l) => {
                if hit(&l.focus) {
                    l.class.push_str(" focus");
                }
            }
        }
    }
}

impl<M: View> LiveDemo for Live<M> {
    fn frame(&mut self) -> Frame {
        let model = self.timeline.model();
        let mut ui = Ui::laid_out(self.layout);
        let mut scene = model.scene(&self.look, &mut ui);
        debug_assert_eq!(
            scene.repeated_keys(),
            Vec::<String>::new(),
            "{}",
            scene.title
        );
        let mut controls = model.controls(&self.look, &mut ui);
        self.ui = ui;
        let mut focus = in_focus(self.timeline.narration(), self.timeline.step_count());
        focus.extend(self.focus);
        mark_scene(&mut scene, &focus);
        fill_refusals(&mut controls, &|slot| self.refusal(slot));
        Frame { scene, controls }
    }

    fn send(&mut self, slot: Slot, input: &Input) -> Result<(), String> {
        let command = self
            .ui
            .resolve(slot, input)
            .map_err(|e| at_the_line(e, input))?;
        self.run(command).map_err(|e| at_the_line(e, input))
    }

    fn check(&self, slot: Slot, input: &Input) -> Result<(), String> {
        self.try_input(slot, input)
            .map_err(|e| at_the_line(e, input))
    }

    fn step(&mut self) -> bool {
        self.timeline.step().is_ok()
    }

    fn rehearse(&self) -> Option<Frame> {
        let mut copy = Live {
            timeline: self.timeline.clone(),
            look: self.look.clone(),
            ui: Ui::laid_out(self.layout),
            layout: self.layout,
            focus: self.focus,
        };
        copy.step().then(|| {
            let _ = (copy.status(), copy.why(), copy.link());
            copy.frame()
        })
    }

    fn back(&mut self) -> bool {
        self.timeline.back()
    }

    fn reset(&mut self) {
        self.timeline.reset();
        self.look = M::Look::default();
    }

    fn can_back(&self) -> bool {
        self.timeline.can_back()
    }

    fn step_count(&self) -> usize {
        self.timeline.step_count()
    }

    fn narration(&self) -> &[NarrationLine] {
        self.timeline.narration()
    }

    fn status(&self) -> Vec<Figure> {
        self.timeline.model().status()
    }

    fn why(&self) -> Vec<String> {
        self.timeline.model().why()
    }

    fn leaves_out(&self) -> &'static str {
        M::leaves_out()
    }

    fn load(&mut self, link: &str) -> Result<(), String> {
        let (state, look) = split_link(link);
        let timeline = Scenario::<M>::decode(state)
            .and_then(|s| Timeline::from_scenario(&s))
            .map_err(|e| {
                format!(
                    "the link's state does not open: {}",
                    sentence_end(&e.to_string())
                )
            })?;
        let look = match look {
            None => M::Look::default(),
            Some(text) => read_look(timeline.model(), text).map_err(|why| {
                format!(
                    "the link's choice of what to show does not open: {}",
                    sentence_end(&why)
                )
            })?,
        };
        self.timeline = timeline;
        self.look = look;
        Ok(())
    }

    fn link(&self) -> String {
        let state = self.timeline.scenario().encode();
        let look = self.timeline.model().link_look(&self.look);
        if look == M::Look::default() {
            state
        } else {
            format!("{state}.{}", encode_look(&look))
        }
    }

    fn set_layout(&mut self, layout: Layout) {
        self.layout = layout;
    }

    fn layout(&self) -> Layout {
        self.layout
    }

    fn lesson(&self) -> Option<Outline> {
        M::lesson().map(|l| l.outline())
    }

    fn open_stop(&mut self, n: usize, replay: bool) -> bool {
        let Some(stop) =
            M::lesson().and_then(|mut l| (n < l.stops.len()).then(|| l.stops.swap_remove(n)))
        else {
            return false;
        };
        if replay {
            match Timeline::from_scenario(&stop.state) {
                Ok(timeline) => {
                    self.timeline = timeline;
                    self.look = M::Look::default();
                }
                Err(_) => return false,
            }
        }
        self.focus = Some(stop.focus);
        true
    }

    fn close_lesson(&mut self) {
        self.focus = None;
    }

    fn task_done(&self, n: usize) -> Option<bool> {
        let lesson = M::lesson()?;
        let task = lesson.stops.get(n)?.task.as_ref()?;
        Some((task.done)(self.timeline.model()))
    }

    fn grade(&self, n: usize, reply: &Reply) -> Option<Verdict> {
        let lesson = M::lesson()?;
        let stop = lesson.stops.get(n)?;
        let question = stop.question.as_ref()?;
        let model = stop.model().ok()?;
        Some(question.grade(&model, reply))
    }
}

/// Marks each button and switch the model would refuse, with the reason.
fn fill_refusals(controls: &mut [Control], refusal: &dyn Fn(Slot) -> Option<String>) {
    for control in controls {
        match control {
            Control::Button(b) => b.refused = refusal(b.send),
            Control::Toggle(t) => t.refused = refusal(t.send),
            Control::Group(g) => fill_refusals(&mut g.controls, refusal),
            _ => {}
        }
    }
}

/// A demo's frame built natively, with its commands: for tests.
pub fn build<M: View>(model: &M, look: &M::Look) -> (Scene, Vec<Control>, Ui<M>) {
    build_for(model, look, Layout::Wide)
}

/// [`build`] for a screen of the given kind.
pub fn build_for<M: View>(
    model: &M,
    look: &M::Look,
    layout: Layout,
) -> (Scene, Vec<Control>, Ui<M>) {
    let mut ui = Ui::laid_out(layout);
    let scene = model.scene(look, &mut ui);
    debug_assert_eq!(
        scene.repeated_keys(),
        Vec::<String>::new(),
        "{}",
        scene.title
    );
    let controls = model.controls(look, &mut ui);
    (scene, controls, ui)
}

#[cfg(test)]
mod tests {
    use super::*;
    use demos::cpu::mesi::{Mesi, MesiAction, MesiConfig};
    use demos::scenario::{LookError, MAX_ACTIONS, MAX_ENCODED_LEN, MAX_LOOK_LEN};
    use demos::ScenarioError;

    /// One full stop ends the error's sentence, and none is doubled.
    fn assert_one_stop(notice: &str, after: &str) {
        assert!(!notice.contains(".."), "{notice}");
        assert_eq!(notice.matches(after).count(), 1, "{notice}");
        let before = &notice[..notice.find(after).unwrap()];
        assert!(before.ends_with('.') && !before.ends_with(".."), "{notice}");
        assert!(notice.ends_with('.'), "{notice}");
    }

    const STATE_AFTER: &str = " The demo opened with its defaults.";
    const LOOK_AFTER: &str = " The demo opened in the link's state, with its default view.";

    /// Every way a reason can end: with or without a full stop, or several.
    const ENDINGS: [&str; 6] = ["", ".", "..", "...", " . ", ". "];

    #[test]
    fn every_state_error_reads_with_one_full_stop() {
        let mut errors = vec![
            ScenarioError::TooLong(MAX_ENCODED_LEN + 1),
            ScenarioError::UnknownVersion,
            ScenarioError::NotBase64,
            ScenarioError::Malformed,
            ScenarioError::TooManyActions(MAX_ACTIONS + 1),
        ];
        for end in ENDINGS {
            errors.push(ScenarioError::BadConfig(format!(
                "the ring has 3 slots{end}"
            )));
            errors.push(ScenarioError::Refused {
                step: 2,
                reason: format!("The ring is empty{end}"),
            });
        }
        for error in errors {
            let notice = state_notice(&error.to_string());
            assert_one_stop(&notice, STATE_AFTER);
        }
        assert_eq!(
            state_notice("the link's settings are invalid: too many lines."),
            "This link could not be restored: the link's settings are invalid: too many lines. The demo opened with its defaults."
        );
    }

    #[test]
    fn every_look_error_reads_with_one_full_stop() {
        let mut errors: Vec<String> = [
            LookError::TooLong(MAX_LOOK_LEN + 1),
            LookError::NotBase64,
            LookError::Malformed,
        ]
        .iter()
        .map(ToString::to_string)
        .collect();
        errors.push("it names something this state does not show".into());
        for error in errors {
            for end in ENDINGS {
                assert_one_stop(&look_notice(&format!("{error}{end}")), LOOK_AFTER);
            }
        }
    }

    /// The notice `open` gives for a link.
    fn notice(link: &str) -> String {
        open::<Mesi>(Some(link)).1.unwrap()
    }

    fn link(config: MesiConfig, actions: Vec<MesiAction>) -> String {
        Scenario::<Mesi> { config, actions }.encode()
    }

    #[test]
    fn a_rehearsal_leaves_the_demo_as_it_was() {
        let (mut live, _) = open::<Mesi>(None);
        live.step();
        let (link, frame, said) = (live.link(), live.frame(), live.narration().len());
        let next = live.rehearse().expect("MESI has a next step");
        assert_ne!(next, frame, "the rehearsal's frame is the next step's");
        assert_eq!(live.link(), link);
        assert_eq!(live.step_count(), 1);
        assert_eq!(live.narration().len(), said);
        assert_eq!(live.frame(), frame);
    }

    #[test]
    fn load_goes_to_a_links_state_or_changes_nothing() {
        let (mut live, _) = open::<Mesi>(None);
        live.step();
        let stepped = live.link();
        live.reset();
        let fresh = live.link();
        assert_ne!(stepped, fresh);
        assert_eq!(live.load(&stepped), Ok(()));
        assert_eq!(live.link(), stepped);
        assert_eq!(live.step_count(), 1);
        let error = live.load("v1.!!").unwrap_err();
        assert!(
            error.starts_with("the link's state does not open: "),
            "{error}"
        );
        let error = live.load(&format!("{fresh}.!")).unwrap_err();
        assert!(error.contains("choice of what to show"), "{error}");
        assert_eq!(
            live.link(),
            stepped,
            "a link that does not open changes nothing"
        );
    }

    #[test]
    fn every_decoder_error_of_a_real_link_reads_with_one_full_stop() {
        let good = link(MesiConfig::default(), vec![]);
        let too_many_lines = MesiConfig {
            lines: 3,
            ..MesiConfig::default()
        };
        // Found by trying: one action the model refuses at its first step.
        let refused = (0..4)
            .flat_map(|core| {
                [
                    MesiAction::Evict { core, line: 0 },
                    MesiAction::Read { core, line: 5 },
                ]
            })
            .find(|a| Mesi::new(&MesiConfig::default()).refusal(a).is_some())
            .expect("an action Mesi refuses");
        let links = [
            (
                "characters long",
                format!("v1.{}", "A".repeat(MAX_ENCODED_LEN)),
            ),
            ("not in a format", "v9.AAAA".to_string()),
            ("not valid URL-safe base64", "v1.!!".to_string()),
            ("does not decode", "v1.AAAAAAAA".to_string()),
            (
                "steps, more than",
                // Two bytes each: short enough to be read, and counted.
                link(
                    MesiConfig::default(),
                    vec![MesiAction::SetInvalidation(true); MAX_ACTIONS + 1],
                ),
            ),
            ("settings are invalid", link(too_many_lines, vec![])),
            (
                "cannot be replayed",
                link(MesiConfig::default(), vec![refused]),
            ),
        ];
        for (what, text) in &links {
            let notice = notice(text);
            assert!(
                notice.starts_with("This link could not be restored: "),
                "{what}: {notice}"
            );
            assert!(notice.contains(what), "{what}: {notice}");
            assert_one_stop(&notice, STATE_AFTER);
        }
        for (what, look) in [
            ("characters long", "A".repeat(MAX_LOOK_LEN + 1)),
            ("not valid URL-safe base64", "!".to_string()),
            ("does not decode", String::new()),
            ("does not show", encode_look(&1usize)),
        ] {
            let notice = notice(&format!("{good}.{look}"));
            assert!(
                notice.starts_with("This link's choice of what to show could not be restored: "),
                "{what}: {notice}"
            );
            assert!(notice.contains(what), "{what}: {notice}");
            assert_one_stop(&notice, LOOK_AFTER);
        }
    }
}
