//! `uniffi-bindgen`: generates the Kotlin and Swift sources of `toolnexus-ffi` from its built library.

fn main() {
    uniffi::uniffi_bindgen_main()
}
