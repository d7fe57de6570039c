//! `mirror_enum!`: a UniFFI enum that mirrors a fieldless enum of the core, case for case.

/// Declares a UniFFI enum whose cases are named as the core enum `$core`'s, with
/// `from_core` (a case newer than this binding becomes `$fallback`), `to_core`, and the
/// exported method `as_str`: the core's stable name (`Widget.DATE_TIME.asStr()` is
/// `"date-time"` in Kotlin, `Widget.dateTime.asStr()` in Swift). With `newer CASE => "name"`
/// instead of `else`, a case of the binding's own stands for a core case newer than the
/// binding (the error kinds' `Other`), with that name.
macro_rules! mirror_enum {
    (
        $(#[$meta:meta])*
        pub enum $name:ident mirrors $core:ident, else $fallback:ident {
            $( $(#[$vmeta:meta])* $variant:ident ),+ $(,)?
        }
    ) => {
        $(#[$meta])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, uniffi::Enum)]
        pub enum $name {
            $( $(#[$vmeta])* $variant, )+
        }

        impl $name {
            /// The case of the core's value.
            // `Mode` only goes into the core, so its mirror never converts back.
            #[allow(unreachable_patterns, dead_code)]
            pub(crate) fn from_core(value: $core) -> $name {
                match value {
                    $( $core::$variant => $name::$variant, )+
                    _ => $name::$fallback,
                }
            }

            /// The core's value of this case.
            pub(crate) fn to_core(self) -> $core {
                match self {
                    $( $name::$variant => $core::$variant, )+
                }
            }

            /// The core's stable name of this case.
            pub(crate) fn core_name(self) -> &'static str {
                self.to_core().as_str()
            }
        }

        #[uniffi::export]
        impl $name {
            /// The stable name of this case, as the core, every binding and the conformance
            /// suite spell it; it never changes for an existing case.
            pub fn as_str(&self) -> String {
                self.core_name().into()
            }
        }
    };
    // A case of the binding's own beside the core's: what a case newer than this binding
    // becomes, with the stable name given for it; it has no core value.
    (
        $(#[$meta:meta])*
        pub enum $name:ident mirrors $core:ident, newer $(#[$nmeta:meta])* $newer:ident => $newer_name:literal {
            $( $(#[$vmeta:meta])* $variant:ident ),+ $(,)?
        }
    ) => {
        $(#[$meta])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, uniffi::Enum)]
        pub enum $name {
            $( $(#[$vmeta])* $variant, )+
            $(#[$nmeta])*
            $newer,
        }

        impl $name {
            /// The case of the core's value; one newer than this binding is the binding's own.
            #[allow(unreachable_patterns)]
            pub(crate) fn from_core(value: $core) -> $name {
                match value {
                    $( $core::$variant => $name::$variant, )+
                    _ => $name::$newer,
                }
            }

            /// The core's value of this case; none for the binding's own.
            pub(crate) fn to_core(self) -> Option<$core> {
                match self {
                    $( $name::$variant => Some($core::$variant), )+
                    $name::$newer => None,
                }
            }

            /// The core's stable name of this case, or the name given to the binding's own.
            pub(crate) fn core_name(self) -> &'static str {
                self.to_core().map_or($newer_name, |value| value.as_str())
            }
        }

        #[uniffi::export]
        impl $name {
            /// The stable name of this case, as the core, every binding and the conformance
            /// suite spell it; it never changes for an existing case.
            pub fn as_str(&self) -> String {
                self.core_name().into()
            }
        }
    };
}

pub(crate) use mirror_enum;
