//! The rules of the demo page that are not pictures but still plain data,
//! tested here: how shapes are written as SVG (`svg`), what they are called
//! (`naming`), the words and choices around every picture (`chrome`), and
//! the messages a framed demo exchanges with its page (`slide`, in `json`),
//! what the home page says about keeping the lab offline (`offline`), which
//! figure a framed page shows (`figures`), and
//! what a course is told of the learner's lessons (`lms`).
//! The app's components draw them; the figure export writes them too.

pub mod chrome;
pub mod figures;
pub mod json;
pub mod lesson;
pub mod lms;
pub mod naming;
pub mod offline;
pub mod slide;
pub mod svg;
