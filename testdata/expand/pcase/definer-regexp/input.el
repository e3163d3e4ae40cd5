;;; input.el --- pattern macros of a required file, made by a definer that computes names  -*- lexical-binding: t -*-

(require 'api-defs)

(defun edit-text (x)
  (pcase x
    ((api-text-edit :new-text :range) (list 'edit new-text range))
    ((api-url-path-ab-c1x :full-path) (list 'url full-path))
    (_ 'none)))
