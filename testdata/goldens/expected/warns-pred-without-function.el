;;; warns-pred-without-function.el --- pcexpand golden  -*- lexical-binding: t -*-
;; Case: warns-pred-without-function (testdata/goldens/manifest.yaml); do not edit.
;; Options: width=80 gensyms=rename

(if (nil x) 1 2)
