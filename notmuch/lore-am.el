;;; lore-am.el --- lore-am commands for notmuch-show  -*- lexical-binding: t -*-

;; Pipe the message shown by notmuch-emacs to lore-am-pipe: `lore-am-save'
;; writes the am-ready series of its thread into `lore-am-dir', and
;; `lore-am-apply' applies it with lore-am --apply in `lore-am-repo' (a
;; dirty tree is refused; the repository is left as it was when anything
;; fails).  `lore-am-thread' adds to the
;; database the messages of the thread it lacks (notmuch-lore-thread) and
;; shows the thread again with them.  The output goes to the *lore-am*
;; buffer.
;;
;; Install: put this file on your `load-path', then in your init file:
;;
;;   (require 'lore-am)
;;   (define-key notmuch-show-mode-map (kbd "C-c a") #'lore-am-save)
;;   (define-key notmuch-show-mode-map (kbd "C-c g") #'lore-am-apply)
;;   (define-key notmuch-show-mode-map (kbd "C-c m") #'lore-am-thread)
;;   (define-key notmuch-show-mode-map (kbd "C-c d") #'lore-am-range-diff)
;;   (define-key notmuch-show-mode-map (kbd "C-c r") #'lore-am-pr)
;;
;; (C-c LETTER is yours to bind; this file binds no key itself.)

;;; Code:

(require 'notmuch-show)

(defgroup lore-am nil
  "Am-ready patch series from notmuch."
  :group 'notmuch)

(defcustom lore-am-dir "~/patches"
  "Folder where `lore-am-save' writes the series."
  :type 'directory)

(defcustom lore-am-repo nil
  "Repository `lore-am-apply' applies to; nil means $LORE_AM_REPO."
  :type '(choice (const :tag "$LORE_AM_REPO" nil) directory))

(defcustom lore-am-args ""
  "More lore-am arguments, split at blanks (empty means $LORE_AM_ARGS)."
  :type 'string)

(defun lore-am--run (program &rest args)
  "Pipe the raw current message to PROGRAM with ARGS; output in *lore-am*.
Return PROGRAM's exit status."
  (let* ((id (notmuch-show-get-message-id))
         (cmd (concat "notmuch show --format=raw -- "
                      (shell-quote-argument id)
                      " | " program " "
                      (mapconcat #'shell-quote-argument args " ")))
         (buf (get-buffer-create "*lore-am*")))
    (with-current-buffer buf (erase-buffer))
    (let ((status (call-process-shell-command cmd nil buf)))
      (display-buffer buf)
      (message "lore-am: %s" (if (eql status 0) "done" "failed, see *lore-am*"))
      status)))

(defun lore-am--pipe (&rest args)
  "Pipe the raw current message to lore-am-pipe with ARGS."
  (apply #'lore-am--run "lore-am-pipe" "-a" lore-am-args args))

(defun lore-am-save ()
  "Save the am-ready series of the current message into `lore-am-dir'."
  (interactive)
  (lore-am--pipe "-d" (expand-file-name lore-am-dir) "save"))

(defun lore-am-apply ()
  "Apply the series of the current message in `lore-am-repo'.
Runs lore-am --apply there (onto the current branch; a dirty tree is
refused, nothing is applied when a patch fails).  The series is kept in
`lore-am-dir', as `lore-am-save' writes it."
  (interactive)
  (apply #'lore-am--pipe "-d" (expand-file-name lore-am-dir)
         (append (and lore-am-repo
                      (list "-r" (expand-file-name lore-am-repo)))
                 (list "apply"))))

(defun lore-am-range-diff ()
  "Show what changed since the revision before, in the *lore-am* buffer.
Runs lore-am --range-diff in `lore-am-repo' (git range-diff of the two
revisions applied on their bases; a diff of the mails when they do not
apply)."
  (interactive)
  (apply #'lore-am--pipe
         (append (and lore-am-repo
                      (list "-r" (expand-file-name lore-am-repo)))
                 (list "range-diff"))))

(defun lore-am-pr ()
  "Fetch the pull request in the current message, and check it.
Runs lore-am pr in `lore-am-repo': the [GIT PULL] mail's branch is
fetched into FETCH_HEAD, its tip checked against the mail, and the
shortlog and diffstat shown in the *lore-am* buffer."
  (interactive)
  (apply #'lore-am--pipe
         (append (and lore-am-repo
                      (list "-r" (expand-file-name lore-am-repo)))
                 (list "pr"))))

(defun lore-am-thread ()
  "Add the messages of this thread that the database lacks, then show them.
Runs notmuch-lore-thread, which fetches the whole thread with lore-am
\(with `lore-am-args', less what only shapes a patch series) and inserts
each message notmuch does not know, tagged lore-am."
  (interactive)
  (let ((status (lore-am--run "notmuch-lore-thread" "-a" lore-am-args)))
    (when (eql status 0)
      (notmuch-show-refresh-view))
    status))

(provide 'lore-am)
;;; lore-am.el ends here
