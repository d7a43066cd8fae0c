//! Conversion of legacy (assert-code) tests to native data tests.
