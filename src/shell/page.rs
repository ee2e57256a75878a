//! A running demo page's state: the live demo (any model, behind
//! `views::LiveDemo`) and signals for everything the page shows. Every
//! change goes through [`Page::act`] or [`Page::send`], which change the
//! demo and then [`Page::refresh`] the signals; the components redraw only
//! what reads a signal that changed.

use crate::platform::{copy_to_clipboard, page_url};
use crate::shell::focus;
use demos::{Figure, NarrationLine};
use gloo_timers::callback::Interval;
use leptos::prelude::*;
use views::control::{Control, Input};
use views::lesson::{Outline, Reply, Verdict};
use views::page::chrome::{copied, START_SPEED};
use views::page::lesson::{stop_opened, verdict_said, Progress};
use views::{Layout, LiveDemo, Room, Scene, Slot};

/// What the control bar, the keyboard and the share panel do.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Act {
    Step,
    Play,
    Back,
    Reset,
    Help,
    HelpClose,
    Copy,
}

/// The page of one running demo. Copy: every field is a handle.
#[derive(Clone, Copy)]
pub struct Page {
    pub slug: &'static str,
    live: StoredValue<Box<dyn LiveDemo>, LocalStorage>,
    /// The autoplay clock: playing while there is one.
    clock: StoredValue<Option<Interval>, LocalStorage>,
    pub scene: RwSignal<Scene>,
    pub controls: RwSignal<Vec<Control>>,
    pub status: RwSignal<Vec<Figure>>,
    /// The newest lines, oldest first (at most what the page lists).
    pub narration: RwSignal<Vec<NarrationLine>>,
    pub why: RwSignal<Vec<String>>,
    pub leaves_out: RwSignal<&'static str>,
    /// The state as a share-link value.
    pub link: RwSignal<String>,
    pub can_back: RwSignal<bool>,
    pub step_count: RwSignal<usize>,
    pub playing: RwSignal<bool>,
    /// Steps per second, in tenths.
    pub speed: RwSignal<u32>,
    pub help: RwSignal<bool>,
    /// What had focus when the shortcuts list opened: it gets it back.
    help_return: StoredValue<Option<web_sys::Element>, LocalStorage>,
    /// Where the page stands (the window, the picture's column, presenter
    /// mode, a lesson open): what arranges it.
    room: StoredValue<Room>,
    /// The controls below the picture rather than beside it.
    pub one_column: RwSignal<bool>,
    /// The layout the figures are drawn in.
    pub layout: RwSignal<Layout>,
    /// The key of the one figure shown, or empty for all (a framed page
    /// shows one at a time: `shell::figures`).
    pub alone: RwSignal<String>,
    /// The link box, once "Copy link" was pressed, and what the copy said.
    pub share_shown: RwSignal<bool>,
    pub share_message: RwSignal<String>,
    /// A figure's download failed: its code could not be fetched
    /// (`shell::export`).
    pub figure_failed: RwSignal<bool>,
    /// What the page last had to say about a control, by control id.
    pub messages: RwSignal<Vec<(String, String)>>,
    /// The lesson: its outline and the learner's place in it. Not a
    /// signal of its own: what draws it reads `lesson_tick`, which every
    /// change moves (one more reactive type costs wasm in every page).
    pub lesson: StoredValue<Lesson>,
    pub lesson_tick: RwSignal<usize>,
    /// The stop open, counted from 1; 0 while the lesson is closed.
    pub lesson_at: RwSignal<usize>,
    /// Class mode (`?class=1`): the answer waits for Reveal.
    pub class_mode: bool,
    /// Presenter mode (`?present=1`, or its toggle): type and strokes for
    /// the back of a lecture hall, the few controls a lecturer steps with.
    pub present: RwSignal<bool>,
    /// What the live region says instead of the latest narration line,
    /// until the narration moves on (a stop opened, a verdict); empty for
    /// nothing.
    pub announce: RwSignal<String>,
}

/// The demo's lesson and where the learner is in it.
pub struct Lesson {
    /// The lesson as plain data, if the demo has one.
    pub outline: Option<Outline>,
    /// Whether the open stop's task is done in the current state.
    pub task_done: Option<bool>,
    /// The learner's reply to the open stop's question, as picked or typed.
    pub reply: Option<Reply>,
    /// The graded reply (or, in class mode, the revealed answer).
    pub verdict: Option<Verdict>,
    /// Stops done and predictions right, kept in this browser.
    pub progress: Progress,
}

/// Sets `signal` only when the value differs: nothing that reads it redraws
/// for a step that left it as it was.
fn set_changed<T: PartialEq + Send + Sync + 'static>(signal: RwSignal<T>, value: T) {
    if signal.with_untracked(|now| *now != value) {
        signal.set(value);
    }
}

impl Page {
    /// The page of `live`, showing its current state.
    pub fn new(
        slug: &'static str,
        mut live: Box<dyn LiveDemo>,
        class_mode: bool,
        room: Room,
    ) -> Page {
        let frame = live.frame();
        let layout = live.layout();
        let outline = live.lesson();
        let fresh = outline
            .as_ref()
            .map_or(Progress::new(0, 0), Progress::of_lesson);
        // A record from before the asked mask was kept takes the lesson's.
        let progress = crate::shell::progress::kept(slug)
            .filter(|p| p.stops == fresh.stops)
            .map_or(fresh, |p| Progress {
                asked: fresh.asked,
                ..p
            });
        let page = Page {
            slug,
            scene: RwSignal::new(frame.scene),
            controls: RwSignal::new(frame.controls),
            status: RwSignal::new(live.status()),
            narration: RwSignal::new(newest(live.narration()).to_vec()),
            why: RwSignal::new(live.why()),
            leaves_out: RwSignal::new(live.leaves_out()),
            link: RwSignal::new(live.link()),
            can_back: RwSignal::new(live.can_back()),
            step_count: RwSignal::new(live.step_count()),
            live: StoredValue::new_local(live),
            clock: StoredValue::new_local(None),
            playing: RwSignal::new(false),
            speed: RwSignal::new(START_SPEED),
            help: RwSignal::new(false),
            help_return: StoredValue::new_local(None),
            room: StoredValue::new(room),
            one_column: RwSignal::new(room.one_column()),
            layout: RwSignal::new(layout),
            alone: RwSignal::new(String::new()),
            share_shown: RwSignal::new(false),
            share_message: RwSignal::new(String::new()),
            figure_failed: RwSignal::new(false),
            messages: RwSignal::new(Vec::new()),
            lesson: StoredValue::new(Lesson {
                outline,
                task_done: None,
                reply: None,
                verdict: None,
                progress,
            }),
            lesson_tick: RwSignal::new(0),
            lesson_at: RwSignal::new(0),
            class_mode,
            present: RwSignal::new(room.present),
            announce: RwSignal::new(String::new()),
        };
        page
    }

    /// Reads the demo's state into the signals, after a change.
    fn refresh(self) {
        let Some(frame) = self.live.try_update_value(|live| live.frame()) else {
            return;
        };
        set_changed(self.scene, frame.scene);
        set_changed(self.controls, frame.controls);
        self.live.with_value(|live| {
            set_changed(self.status, live.status());
            let lines = newest(live.narration());
            if self.narration.with_untracked(|now| now.as_slice() != lines) {
                self.narration.set(lines.to_vec());
                set_changed(self.announce, String::new());
            }
            set_changed(self.why, live.why());
            set_changed(self.leaves_out, live.leaves_out());
            set_changed(self.link, live.link());
            set_changed(self.can_back, live.can_back());
            set_changed(self.step_count, live.step_count());
        });
        self.task_check();
    }

    /// How many stops the demo's lesson has (0: it has none).
    pub fn stops(self) -> usize {
        self.lesson
            .with_value(|l| l.outline.as_ref().map_or(0, |o| o.stops.len()))
    }

    /// The open stop (from 0), if any; tracked.
    pub fn at_stop(self) -> Option<usize> {
        self.lesson_at.get().checked_sub(1)
    }

    /// Reads the lesson, tracked: runs again after every change to it.
    pub fn read_lesson<T>(self, f: impl FnOnce(&Lesson) -> T) -> T {
        self.lesson_tick.track();
        self.lesson.with_value(f)
    }

    /// Changes the lesson; what reads it redraws.
    pub fn change_lesson(self, f: impl FnOnce(&mut Lesson)) {
        self.lesson.update_value(f);
        self.lesson_tick.update(|t| *t += 1);
    }

    /// Reads whether the open stop's task is done; done, it counts.
    fn task_check(self) {
        let Some(n) = self.lesson_at.get_untracked().checked_sub(1) else {
            return;
        };
        let done = self.live.with_value(|live| live.task_done(n));
        let was = self.lesson.with_value(|l| l.task_done);
        if done != was {
            if done == Some(true) && was == Some(false) {
                self.announce.set("Task done.".into());
            }
            self.change_lesson(|l| l.task_done = done);
        }
        self.count_stop();
    }

    /// Marks the open stop done once its task (if any) is done and its
    /// question (if any) answered.
    fn count_stop(self) {
        let Some(n) = self.lesson_at.get_untracked().checked_sub(1) else {
            return;
        };
        let count = self.lesson.with_value(|l| {
            let asked = l
                .outline
                .as_ref()
                .is_some_and(|o| o.stops[n].question.is_some());
            l.task_done != Some(false) && (!asked || l.verdict.is_some()) && !l.progress.is_done(n)
        });
        if count {
            self.change_lesson(|l| l.progress.mark_done(n));
            self.save_progress();
        }
    }

    fn save_progress(self) {
        let progress = self.lesson.with_value(|l| l.progress);
        crate::shell::progress::keep(self.slug, Some(&progress));
        crate::shell::lms::progress_changed();
    }

    /// Forgets the learner's progress through this lesson.
    pub fn forget_progress(self) {
        self.change_lesson(|l| {
            l.progress = Progress {
                done: 0,
                right: 0,
                ..l.progress
            }
        });
        crate::shell::progress::keep(self.slug, None);
        self.announce.set("Your progress was forgotten.".into());
    }

    /// Opens lesson stop `n`: with `replay`, the demo goes to the stop's
    /// state. Focus goes to the stop's title.
    pub fn open_stop(self, n: usize, replay: bool) {
        if self.show_stop(n, replay) {
            crate::shell::focus::after_redraw(|| {
                crate::shell::focus::to_testid("lesson-title");
            });
        }
    }

    /// Opens lesson stop `n` as [`Page::open_stop`] does, but leaves focus
    /// where it is (a slide deck driving a framed demo keeps its keys).
    /// False when the demo has no such stop.
    pub fn show_stop(self, n: usize, replay: bool) -> bool {
        self.stop();
        let opened = self.live.try_update_value(|live| live.open_stop(n, replay));
        if opened != Some(true) {
            return false;
        }
        self.change_lesson(|l| {
            l.reply = None;
            l.verdict = None;
            l.task_done = None;
        });
        self.lesson_at.set(n + 1);
        self.rearrange(|room| room.lesson_open = true);
        self.messages.set(Vec::new());
        self.refresh();
        let said = self.lesson.with_value(|l| {
            l.outline
                .as_ref()
                .map(|o| stop_opened(n, o))
                .unwrap_or_default()
        });
        self.announce.set(said);
        true
    }

    /// Closes the lesson panel.
    pub fn close_lesson(self) {
        self.live.update_value(|live| live.close_lesson());
        self.lesson_at.set(0);
        self.rearrange(|room| room.lesson_open = false);
        self.change_lesson(|l| l.verdict = None);
        self.refresh();
        crate::shell::focus::after_redraw(|| {
            crate::shell::focus::to_testid("lesson-open");
        });
    }

    /// Grades the learner's reply (or, with none, reveals the answer: class
    /// mode's Reveal); a right prediction counts.
    pub fn check_reply(self) {
        let Some(n) = self.lesson_at.get_untracked().checked_sub(1) else {
            return;
        };
        let reply = self.lesson.with_value(|l| l.reply.clone());
        let graded = reply.clone().unwrap_or(Reply::Number(f64::NAN));
        let Some(verdict) = self.live.with_value(|live| live.grade(n, &graded)) else {
            return;
        };
        let right = reply.is_some() && verdict.right;
        self.announce.set(verdict_said(&verdict, reply.is_some()));
        self.change_lesson(|l| {
            l.verdict = Some(verdict);
            if right {
                l.progress.mark_right(n);
            }
        });
        if right {
            self.save_progress();
        }
        self.count_stop();
        crate::shell::focus::after_redraw(|| {
            crate::shell::focus::to_testid("lesson-verdict");
        });
    }

    /// The address of this state.
    pub fn share_url(self) -> String {
        let lesson = match self.lesson_at.get() {
            0 => String::new(),
            k => format!("&lesson={k}"),
        };
        format!("{}?s={}{lesson}", page_url(), self.link.get())
    }

    fn say(self, id: &str, message: Option<String>) {
        self.messages.update(|all| {
            all.retain(|(k, _)| k != id);
            if let Some(m) = message {
                all.push((id.to_string(), m));
            }
        });
    }

    /// Arranges the page for where it now stands (a phone turned, a window
    /// narrowed, the picture's column measured, a lesson opened), at the
    /// same step.
    pub fn rearrange(self, change: impl FnOnce(&mut Room)) {
        let Some(room) = self.room.try_update_value(|room| {
            change(room);
            *room
        }) else {
            return;
        };
        set_changed(self.one_column, room.one_column());
        self.set_layout(room.layout());
    }

    /// Draws the figures in `layout`, at the same step.
    fn set_layout(self, layout: Layout) {
        if self.layout.get_untracked() == layout {
            return;
        }
        self.live.update_value(|live| live.set_layout(layout));
        self.refresh();
        self.layout.set(layout);
    }

    /// Uses control `id` (or clicks a shape) with `input`; focus stays
    /// usable ([`focus::kept`]).
    pub fn send(self, id: &str, slot: Slot, input: Input) {
        focus::kept(|| self.sent(id, slot, input));
    }

    fn sent(self, id: &str, slot: Slot, input: Input) {
        let result = self.live.try_update_value(|live| live.send(slot, &input));
        if let Some(result) = result {
            self.say(id, result.err());
            self.refresh();
        }
    }

    /// Checks a form's fields as they are typed, without sending them.
    pub fn check(self, id: &str, slot: Slot, input: Input) {
        if let Some(result) = self.live.try_with_value(|live| live.check(slot, &input)) {
            self.say(id, result.err());
        }
    }

    /// Says something about control `id` (a value the page could not read).
    pub fn note(self, id: &str, text: String) {
        self.say(id, Some(text));
    }

    /// A page action. Focus stays usable ([`focus::kept`]); the shortcuts
    /// list takes focus when it opens and gives it back when it closes.
    pub fn act(self, act: Act) {
        match act {
            Act::Help | Act::HelpClose => self.help_list(act == Act::Help),
            _ => focus::kept(|| self.run(act)),
        }
    }

    /// Opens the shortcuts list (`?` again closes it), or closes it.
    fn help_list(self, toggle: bool) {
        let open = self.help.get_untracked();
        if open {
            self.help.set(false);
            let back = self.help_return.try_update_value(Option::take).flatten();
            focus::after_redraw(move || match back {
                Some(el) if el.is_connected() => focus::keep(&el),
                _ => {
                    focus::to_testid("step");
                }
            });
        } else if toggle {
            self.help_return.set_value(focus::active());
            self.help.set(true);
            focus::after_redraw(|| {
                focus::to_testid("shortcuts");
            });
        }
    }

    /// A Step and its frame on a copy of the demo (`LiveDemo::rehearse`),
    /// and the picture's change to that frame drawn out of sight
    /// (`scene::rehearse`).
    pub fn rehearse(self) {
        // The learner may have left the page before the browser was idle.
        let next = self.live.try_with_value(|live| live.rehearse()).flatten();
        if let (Some(next), Some(now)) = (next, self.scene.try_get_untracked()) {
            crate::scene::rehearse(now, next.scene);
        }
    }

    fn run(self, act: Act) {
        match act {
            Act::Step => {
                let stepped = self.live.try_update_value(|live| live.step());
                if stepped == Some(false) {
                    self.stop();
                }
                self.refresh();
            }
            Act::Play => {
                if self.playing.get_untracked() {
                    self.stop();
                } else {
                    self.play(self.speed.get_untracked());
                }
            }
            Act::Back | Act::Reset => {
                self.stop();
                self.live.update_value(|live| {
                    if act == Act::Back {
                        live.back();
                    } else {
                        live.reset();
                    }
                });
                if act == Act::Reset {
                    self.messages.set(Vec::new());
                }
                self.refresh();
            }
            Act::Help | Act::HelpClose => self.help_list(act == Act::Help),
            Act::Copy => {
                self.share_shown.set(true);
                copy_to_clipboard(&self.share_url(), move |ok| {
                    self.share_message.try_set(copied(ok).to_string());
                });
            }
        }
    }

    /// Enters or leaves presenter mode: the figures are drawn again for it.
    pub fn set_present(self, on: bool) {
        self.present.set(on);
        self.rearrange(|room| room.present = on);
    }

    /// Starts or stops autoplay; already so, nothing changes.
    pub fn set_playing(self, on: bool) {
        if on != self.playing.get_untracked() {
            self.run(Act::Play);
        }
    }

    /// Goes to the state of share-link value `link`; a link that does not
    /// open whole changes nothing and says why.
    pub fn load(self, link: &str) -> Result<(), String> {
        self.stop();
        let loaded = self
            .live
            .try_update_value(|live| live.load(link))
            .ok_or("the demo has gone")?;
        loaded?;
        self.messages.set(Vec::new());
        self.refresh();
        Ok(())
    }

    /// A new autoplay speed; a running clock restarts at it.
    pub fn set_speed(self, tenths: u32) {
        self.speed.set(tenths);
        if self.playing.get_untracked() {
            self.play(tenths);
        }
    }

    /// A clock that presses Step `tenths / 10` times a second; the model
    /// decides what a step is.
    fn play(self, tenths: u32) {
        let clock = Interval::new(10_000 / tenths.max(1), move || self.run(Act::Step));
        self.clock.set_value(Some(clock));
        self.playing.set(true);
    }

    fn stop(self) {
        self.clock.set_value(None);
        set_changed(self.playing, false);
    }
}

/// The lines the page lists: the latest, and the history under it.
fn newest(lines: &[NarrationLine]) -> &[NarrationLine] {
    let kept = demos::timeline::NARRATION_KEPT + 1;
    &lines[lines.len().saturating_sub(kept)..]
}
