//! The schema's tests, in one home: the typed model, the reader's problems and the string
//! formats.

mod format;
mod model;
mod reader;
