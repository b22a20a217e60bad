# SPDX-License-Identifier: GPL-2.0-only
# bash completion for the ftrace tools: iosnoop opensnoop execsnoop funccount
# funcgraph functrace funcslower funclatency kprobe uprobe tpoint iolatency tcpretrans killsnoop syscount
# perf-stat-hist bitesize cachestat reset-ftrace
#
# The options come from the tool's own -h (so they follow the installed
# version); what an option takes comes from the running system:
#   -d on iosnoop/iolatency/bitesize  block devices (/proc/partitions)
#   -p PID, -L TID             process and thread IDs (/proc)
#   -n name                    process names (/proc/PID/comm)
#   tpoint's tracepoint        SYSTEM:EVENT, from `tpoint -l` (needs root)
#   perf-stat-hist's tracepoint  the same, for the first word after the options
#   funccount/funcgraph/functrace/funcslower/funclatency  kernel function names (available_filter_functions,
#                              readable by root)
#   uprobe -l target           files and command names
#   syscount's command         command names (compgen -c), for the first word
#                              after the options
# Installed once per tool name under share/bash-completion/completions.

# _ftt_word - the word being completed, whole: bash splits "sched:sched_s" at
# the colon (COMP_WORDBREAKS), so take it from the line up to the cursor
_ftt_word() {
	local line=${COMP_LINE:0:COMP_POINT}
	printf '%s' "${line##*[[:space:]]}"
}

# _ftt_reply WORD CANDIDATES... - COMPREPLY: the candidates that start with
# WORD, with what bash already has before the word's last colon cut off
_ftt_reply() {
	local word=$1 c pre=
	shift
	[[ $COMP_WORDBREAKS == *:* && $word == *:* ]] && pre=${word%:*}:
	COMPREPLY=()
	for c in "$@"; do
		[[ $c == "$word"* ]] && COMPREPLY+=("${c#"$pre"}")
	done
}

# _ftt_flags TOOL - the options TOOL's -h lists, one per line: "-d ARG" for an
# option that takes an argument ("--exec ARG" for a long one), "-Q" for one
# that does not; long names too
_ftt_flags() {
	local line re_arg='^ {2,}(-[A-Za-z]|--[a-z][a-z-]*) +[A-Za-z]+ {2,}#' re_flag='^ {2,}(-[A-Za-z]|--[a-z][a-z-]*) {2,}#'
	local re_long='\(also (--[a-z][a-z-]*)\)'
	while IFS= read -r line; do
		if [[ $line =~ $re_arg ]]; then
			printf '%s ARG\n' "${BASH_REMATCH[1]}"
		elif [[ $line =~ $re_flag ]]; then
			printf '%s\n' "${BASH_REMATCH[1]}"
		fi
		[[ $line =~ $re_long ]] && printf '%s\n' "${BASH_REMATCH[1]}"
	done < <("$1" -h 2>/dev/null)
	printf '%s\n' --help --version
}

# _ftt_cgroups WORD - cgroup directories under the cgroup2 mount, relative to it
_ftt_cgroups() {
	local m
	m=$(awk '$3 == "cgroup2" { print $2; exit }' /proc/mounts 2>/dev/null)
	[[ -n $m ]] && (cd "$m" 2>/dev/null && compgen -d -S / -- "$1")
}

# _ftt_devices - block devices by name: disks and partitions
_ftt_devices() {
	awk 'NR > 2 && $4 != "" { print $4 }' /proc/partitions 2>/dev/null
}

# _ftt_pids - every PID (or, with "task", every thread ID)
_ftt_pids() {
	local d
	if [[ $1 == task ]]; then
		for d in /proc/[0-9]*/task/[0-9]*; do printf '%s\n' "${d##*/}"; done
	else
		for d in /proc/[0-9]*; do printf '%s\n' "${d##*/}"; done
	fi
}

# _ftt_comms - the names of running processes
_ftt_comms() {
	cat /proc/[0-9]*/comm 2>/dev/null | sort -u
}

# _ftt_functions WORD - kernel functions starting with WORD (root only);
# WORD with a glob character completes nothing: it is a pattern already
_ftt_functions() {
	local f
	[[ $1 == *[\*\?\[]* ]] && return
	for f in /sys/kernel/tracing/available_filter_functions \
		 /sys/kernel/debug/tracing/available_filter_functions; do
		if [[ -r $f ]]; then
			grep -o "^$1[A-Za-z0-9_.]*" "$f" 2>/dev/null | sort -u | head -n 2000
			return
		fi
	done
}

# _ftt_first - the word being completed is the first operand: before it only
# options, and the arguments of those that take one (perf-stat-hist's -b -f -m -P)
_ftt_first() {
	local i w
	for ((i = 1; i < COMP_CWORD; i++)); do
		w=${COMP_WORDS[i]}
		case $w in
		-*[bfmP]) ((i++)) ;;
		-*) ;;
		*) return 1 ;;
		esac
	done
}

# _ftt_command WORD - syscount's command: command names, where WORD is the
# first word after the options (after it, the command's own arguments:
# files, as bash offers by default)
_ftt_command() {
	local i w
	for ((i = 1; i < COMP_CWORD; i++)); do
		w=${COMP_WORDS[i]}
		case $w in
		--) continue ;;
		-*[dipt]) ((i++)); continue ;;	# its argument is the next word
		-*) continue ;;
		*) COMPREPLY=($(compgen -f -- "$1")); return ;;
		esac
	done
	COMPREPLY=($(compgen -c -- "$1"))
}

# _ftt - the completion function of every tool
_ftt() {
	local tool=${1##*/} word prev opt takes=0 flags
	tool=${tool%-ftrace}
	word=$(_ftt_word)
	prev=${COMP_WORDS[COMP_CWORD-1]}
	[[ $word == "$prev" ]] && prev=${COMP_WORDS[COMP_CWORD-2]}
	flags=$(_ftt_flags "$1")

	# the argument of an option that takes one
	if [[ $prev == -[A-Za-z] || $prev == --[a-z]* ]]; then
		while read -r opt takes; do
			[[ $opt == "$prev" ]] && break
			takes=
		done <<< "$flags"
		if [[ -n $takes ]]; then
			case $tool:$prev in
			iosnoop:-d|iolatency:-d|bitesize:-d)	_ftt_reply "$word" $(_ftt_devices) ;;
			*:-p)				_ftt_reply "$word" $(_ftt_pids) ;;
			*:-L)				_ftt_reply "$word" $(_ftt_pids task) ;;
			*:-n)				_ftt_reply "$word" $(_ftt_comms) ;;
			uprobe:-l)			COMPREPLY=($(compgen -c -- "$word"; compgen -f -- "$word")) ;;
			*:--exec)			COMPREPLY=($(compgen -c -- "$word")) ;;
			*:--cgroup)			COMPREPLY=($(_ftt_cgroups "$word")) ;;
			*)				COMPREPLY=() ;;
			esac
			return
		fi
	fi
	if [[ $word == -* ]]; then
		_ftt_reply "$word" $(cut -d' ' -f1 <<< "$flags")
		return
	fi
	case $tool in
	tpoint)			_ftt_reply "$word" $("$1" -l 2>/dev/null) ;;
	funccount|funcgraph|functrace|funcslower|funclatency)	_ftt_reply "$word" $(_ftt_functions "$word") ;;
	syscount)		_ftt_command "$word" ;;
	perf-stat-hist)		_ftt_first && _ftt_reply "$word" $(tpoint -l 2>/dev/null) ;;
	*)			COMPREPLY=() ;;
	esac
}

complete -F _ftt iosnoop opensnoop execsnoop funccount funcgraph functrace funcslower funclatency kprobe uprobe tpoint iolatency tcpretrans killsnoop syscount perf-stat-hist bitesize cachestat reset-ftrace \
	iosnoop-ftrace opensnoop-ftrace execsnoop-ftrace funccount-ftrace funcgraph-ftrace functrace-ftrace funcslower-ftrace funclatency-ftrace kprobe-ftrace uprobe-ftrace tpoint-ftrace iolatency-ftrace tcpretrans-ftrace killsnoop-ftrace syscount-ftrace perf-stat-hist-ftrace bitesize-ftrace cachestat-ftrace reset-ftrace-ftrace
