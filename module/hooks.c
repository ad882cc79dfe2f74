// SPDX-License-Identifier: GPL-2.0
/*
 * The ftrace machinery behind include/clusterswap/hooks.h: registration,
 * refusal of targets that cannot be hooked, the redirect callback, and the
 * quiescence that makes unloading safe under load.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/ftrace.h>
#include <linux/kallsyms.h>
#include <linux/module.h>
#include <linux/delay.h>
#include <linux/rcupdate.h>
#include <linux/workqueue.h>

#include <arch_ftrace.h>

#include <clusterswap/arch.h>
#include <clusterswap/hooks.h>
#include <clusterswap/line.h>
#include <clusterswap/swapdev.h>
#include <clusterswap/tail_calls.h>
#include <clusterswap/warn.h>

DEFINE_PER_CPU(unsigned long, cs_hook_calls_pcp[CS_NR_SYMS]);
DEFINE_PER_CPU(long, cs_hooks_inflight);

/* Whether the redirects serve calls (the switch), or pass them all on. */
static bool cs_serving;

/* What an observed swapon or swapoff step queues: main.c's work item. */
static struct work_struct *cs_devices_changed_work;

static const struct cs_hook *cs_hook_at(const struct cs_hook *hooks,
					unsigned int nr, unsigned long ip)
{
	unsigned int i;

	for (i = 0; i < nr; i++)
		if (hooks[i].fentry == ip)
			return &hooks[i];
	return NULL;
}

/*
 * Runs at the ftrace call site of every redirected function, with the
 * caller's arguments untouched in @fregs.  A call coming from this module is
 * a replacement reaching its original: let it through.  The module calls
 * kernel functions only through the gate, so such a call returns to
 * cs_gate_return; and the gate enters the functions redirected here after
 * their call site (cs_sym_call_past_ftrace()), so this test is only a guard.
 * Otherwise, while enabled and once the table of devices is proven
 * (cs_swapdev_proven(): until then the module serves no call), send the call
 * to the replacement, which returns straight to the original caller.
 *
 * ftrace calls this directly from the trampoline, preemptible (the ops has no
 * FTRACE_OPS_FL_RECURSION: nothing here can re-enter a redirected function).
 * The switch is read and the call counted with preemption off, an RCU
 * read-side section that cs_hooks_wait_calls() waits out, so switching off
 * needs no barrier here; switching on is an acquire (below).
 */
static void notrace cs_redirect_cb(unsigned long ip, unsigned long parent_ip,
				   struct ftrace_ops *ops,
				   struct ftrace_regs *fregs)
{
	const struct cs_hook *hook;

	if (!READ_ONCE(cs_serving) || parent_ip == (unsigned long)cs_gate_return)
		return;
	hook = cs_hook_at(cs_redirects, cs_nr_redirects, ip);
	if (cs_warn_once(!hook, "ftrace called back at %pS, which is not redirected\n", (void *)ip))
		return;
	preempt_disable_notrace();
	/*
	 * Read again inside the section: see cs_hooks_wait_calls().  Acquire:
	 * the replacement then sees the state the switch handed it
	 * (cs_hooks_serve()), such as the per-CPU cursors a hand-back cleared,
	 * and the table of devices the proof set.
	 */
	if (smp_load_acquire(&cs_serving) && cs_swapdev_proven()) {
		/* Counted until the replacement returns (cs_hook_exit()). */
		this_cpu_inc(cs_hooks_inflight);
		cs_ftrace_set_ip(fregs, (unsigned long)hook->replacement);
	}
	preempt_enable_notrace();
}

static void notrace cs_observe_cb(unsigned long ip, unsigned long parent_ip,
				  struct ftrace_ops *ops,
				  struct ftrace_regs *fregs)
{
	const struct cs_hook *hook = cs_hook_at(cs_observers, cs_nr_observers, ip);

	if (!hook)
		return;
	this_cpu_inc(cs_hook_calls_pcp[hook->target]);
	/*
	 * Every observed call from the kernel is a swapon or swapoff step.
	 * One from this module (the switch's take-over calls
	 * disable_swap_slots_cache_lock(), through the gate, which enters a
	 * function it does not redirect at its ftrace site) is not.
	 */
	if (parent_ip == (unsigned long)cs_gate_return)
		return;
	/*
	 * swapon's last step before its device enters service: the table of
	 * devices is checked now, in swapon's context.  Every other step
	 * queues the work that follows devices in and out.
	 */
	if (hook->target == CS_SYM_init_swap_address_space)
		cs_swapdev_before_swapon();
	else
		schedule_work(cs_devices_changed_work);
}

/*
 * PERMANENT: without it, sysctl kernel.ftrace_enabled=0 would silently drop
 * the redirects.  What else IPMODIFY needs (SAVE_REGS, where ftrace has no
 * "with args" mode) is the architecture's (arch_ftrace.h).
 */
static struct ftrace_ops cs_redirect_ops = {
	.func = cs_redirect_cb,
	.flags = FTRACE_OPS_FL_IPMODIFY | FTRACE_OPS_FL_PERMANENT | CS_ARCH_REDIRECT_FLAGS,
};

static struct ftrace_ops cs_observe_ops = {
	.func = cs_observe_cb,
};

unsigned long cs_hook_calls(enum cs_sym sym)
{
	unsigned long sum = 0;
	int cpu;

	for_each_possible_cpu(cpu)
		sum += READ_ONCE(per_cpu(cs_hook_calls_pcp[sym], cpu));
	return sum;
}

/* Replacement calls so far, every symbol's, summed over CPUs. */
unsigned long cs_hooks_activity(void)
{
	unsigned long sum = 0;
	unsigned int sym;

	for (sym = 0; sym < CS_NR_SYMS; sym++)
		sum += cs_hook_calls(sym);
	return sum;
}

/* Replacement calls now running (or entered by the callback, not yet begun). */
long cs_hooks_inflight_sum(void)
{
	long sum = 0;
	int cpu;

	for_each_possible_cpu(cpu)
		sum += READ_ONCE(per_cpu(cs_hooks_inflight, cpu));
	return sum;
}

static void notrace cs_probe_cb(unsigned long ip, unsigned long parent_ip,
				struct ftrace_ops *ops, struct ftrace_regs *fregs)
{
}

/*
 * register_ftrace_function() says -EBUSY when any one target already has an
 * IPMODIFY owner (a livepatch, a kprobe with a post handler, another hooking
 * module).  Find and name each such target, hooking it alone.
 */
static void cs_hooks_name_owned(void)
{
	struct ftrace_ops probe;
	unsigned int i;
	bool named = false;

	for (i = 0; i < cs_nr_redirects; i++) {
		memset(&probe, 0, sizeof(probe));
		probe.func = cs_probe_cb;
		probe.flags = FTRACE_OPS_FL_IPMODIFY | CS_ARCH_REDIRECT_FLAGS;
		if (ftrace_set_filter_ip(&probe, cs_redirects[i].fentry, 0, 0))
			continue;
		if (register_ftrace_function(&probe) == -EBUSY) {
			pr_err("%s is already modified by another ftrace user (a livepatch or another module); refusing to load\n",
			       cs_sym_name(cs_redirects[i].target));
			named = true;
		} else {
			unregister_ftrace_function(&probe);
		}
		ftrace_free_filter(&probe);
	}
	if (!named)
		pr_err("ftrace refused the hooks (is sysctl kernel.ftrace_enabled 0?)\n");
}

static int cs_hooks_locate(struct cs_hook *hooks, unsigned int nr,
			   struct ftrace_ops *ops)
{
	char clone[KSYM_NAME_LEN];
	unsigned int i;
	int err;

	for (i = 0; i < nr; i++) {
		unsigned long addr = cs_sym_addr(hooks[i].target);

		/*
		 * A copy's callers never reach the ftrace site: a redirect
		 * would miss them, and so would an observer (a swapon or
		 * swapoff the module never hears of).
		 */
		if (cs_sym_clone(hooks[i].target, clone, sizeof(clone))) {
			pr_err("%s has a compiler-made copy, %s, whose callers a %s would miss; refusing to load\n",
			       cs_sym_name(hooks[i].target), clone,
			       hooks[i].replacement ? "redirect" : "swapon and swapoff observer");
			return -EOPNOTSUPP;
		}

		/* ftrace_location(): the call site, after the ENDBR on IBT builds. */
		hooks[i].fentry = cs_sym_call1(CS_SYM_ftrace_location, addr);
		if (!hooks[i].fentry) {
			pr_err("%s cannot be traced on this kernel; refusing to load\n",
			       cs_sym_name(hooks[i].target));
			return -EOPNOTSUPP;
		}
		/* The gate enters past the site: it must be the entry's. */
		if (!cs_arch_ftrace_site_ok(addr, hooks[i].fentry)) {
			pr_err("%s has its ftrace site at %pS, not where this architecture's entry puts it; refusing to load\n",
			       cs_sym_name(hooks[i].target), (void *)hooks[i].fentry);
			return -EOPNOTSUPP;
		}
		err = ftrace_set_filter_ip(ops, hooks[i].fentry, 0, 0);
		if (err) {
			pr_err("cannot set an ftrace filter on %s (%d)\n",
			       cs_sym_name(hooks[i].target), err);
			return err;
		}
		if (hooks[i].replacement)
			cs_sym_call_past_ftrace(hooks[i].target, hooks[i].fentry);
	}
	return 0;
}

/**
 * cs_hooks_register() - Install the redirects and the observers.
 * @devices_changed: queued at every observed swapon or swapoff step; its
 *	owner flushes it after cs_hooks_unregister().
 *
 * The redirects pass every call to stock code until cs_hooks_serve(true).
 * Context: process context, module init.
 * Return: 0, or an error after naming the target that could not be hooked.
 */
int cs_hooks_register(struct work_struct *devices_changed)
{
	int err;

	cs_devices_changed_work = devices_changed;
	err = cs_hooks_locate(cs_redirects, cs_nr_redirects, &cs_redirect_ops);
	if (err)
		goto free_filters;
	err = cs_hooks_locate(cs_observers, cs_nr_observers, &cs_observe_ops);
	if (err)
		goto free_filters;
	err = cs_refuse_tail_calls(cs_redirects, cs_nr_redirects);
	if (err)
		goto free_filters;

	err = register_ftrace_function(&cs_redirect_ops);
	if (err) {
		if (err == -EBUSY)
			cs_hooks_name_owned();
		else
			pr_err("cannot register the ftrace redirects (%d)\n", err);
		goto free_filters;
	}
	err = register_ftrace_function(&cs_observe_ops);
	if (err) {
		pr_err("cannot register the ftrace observers (%d)\n", err);
		unregister_ftrace_function(&cs_redirect_ops);
		goto free_filters;
	}
	return 0;

free_filters:
	ftrace_free_filter(&cs_redirect_ops);
	ftrace_free_filter(&cs_observe_ops);
	return err;
}

static void cs_hooks_wait_inflight(void)
{
	while (cs_hooks_inflight_sum() > 0)
		usleep_range(500, 1000);
}

/**
 * cs_hooks_wait_calls() - Wait until no replacement is running.
 *
 * For switching off, after the serving flag is cleared.  A callback reads the
 * flag and counts the call inside one preemption-off section
 * (cs_redirect_cb()).  After a grace period every section that began before
 * the flag was cleared has ended, so each call it let through is in the
 * count (the grace period orders its increment before the reads here), and
 * every later section sees the flag clear.  Once the count drains, no call
 * can reach a replacement any more.
 * Context: process context, may sleep.
 */
static void cs_hooks_wait_calls(void)
{
	might_sleep();
	synchronize_rcu();
	cs_hooks_wait_inflight();
}

/**
 * cs_hooks_serve() - Send calls to the replacements (@on), or to stock code.
 * @on: the switch.
 *
 * On: new calls come to the replacements at once.  Off: new calls go to
 * stock code at once, and this returns once no replacement is running.
 * Context: process context, may sleep; the caller serialises switching.
 */
void cs_hooks_serve(bool on)
{
	/* Release: pairs with the acquire in cs_redirect_cb(). */
	smp_store_release(&cs_serving, on);
	if (!on)
		cs_hooks_wait_calls();
}

/* Whether the replacements serve calls. */
bool cs_hooks_serving(void)
{
	return READ_ONCE(cs_serving);
}

/*
 * After unregistering, no callback runs any more and no new replacement can
 * be entered (unregister_ftrace_function() waits for RCU-tasks).  A
 * replacement may still be running, sleeping in the original it passed the
 * call to: wait for the in-flight count to drain, then one more RCU-tasks
 * grace period for any task preempted between cs_hook_exit() and its return.
 */
static void cs_hooks_quiesce(void)
{
	cs_hooks_wait_inflight();
	synchronize_rcu_tasks();
}

/**
 * cs_hooks_unregister() - Remove all hooks; no task is in module text after.
 *
 * Context: process context, may sleep; module exit.
 */
void cs_hooks_unregister(void)
{
	unregister_ftrace_function(&cs_observe_ops);
	unregister_ftrace_function(&cs_redirect_ops);
	cs_hooks_quiesce();
	ftrace_free_filter(&cs_redirect_ops);
	ftrace_free_filter(&cs_observe_ops);
}
