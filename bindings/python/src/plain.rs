//! `plain_data!`: the methods every plain-data class shares (`to_dict`, `__repr__`,
//! `__reduce__`), kept apart from the JSON classes so that the classes it serves (a violation,
//! a field, a finding) depend on nothing but the printer of their `repr`.

/// The `#[pymethods]` of a plain data class: the methods given, then `to_dict` (every field
/// by name), `__repr__` (every field) and `__reduce__` (the constructor with `args`).
macro_rules! plain_data {
    (
        $ty:ident as $name:literal,
        fields = [$($field:ident),+ $(,)?],
        args = [$($arg:ident),+ $(,)?];
        $($methods:tt)*
    ) => {
        #[pymethods]
        impl $ty {
            $($methods)*

            #[doc = concat!("The object as a `dict`: `{", $("\"", stringify!($field), "\", ",)+ "}`.")]
            fn to_dict<'py>(
                &self,
                py: Python<'py>,
            ) -> PyResult<Bound<'py, pyo3::types::PyDict>> {
                let dict = pyo3::types::PyDict::new(py);
                $(dict.set_item(stringify!($field), self.$field.clone())?;)+
                Ok(dict)
            }

            fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
                Ok($crate::repr::Repr::new($name)
                    $(.field(stringify!($field), self.$field.clone(), py)?)+
                    .finish())
            }

            fn __reduce__<'py>(
                slf: &Bound<'py, Self>,
            ) -> PyResult<(Bound<'py, pyo3::types::PyType>, Bound<'py, pyo3::types::PyTuple>)> {
                let this = slf.get();
                let args = ($(this.$arg.clone(),)+).into_pyobject(slf.py())?;
                Ok((slf.get_type(), args))
            }
        }
    };
}
pub(crate) use plain_data;
