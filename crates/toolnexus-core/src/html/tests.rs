//! Tests of the web form.
