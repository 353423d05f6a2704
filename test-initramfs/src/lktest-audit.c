// SPDX-License-Identifier: GPL-2.0
/*
 * lktest-audit: read or switch on the kernel's audit status over netlink,
 * as auditctl -s / -e 1 do, without auditd.
 *
 *   lktest-audit status     print "audit: enabled=N lost=N backlog=N"
 *   lktest-audit enable     set enabled=1, then print the status
 *
 * With no audit daemon the kernel prints records on the console, within
 * printk's own rate limit; each record it drops counts in "lost".
 */
#include "lktest.h"

#include <linux/audit.h>
#include <linux/netlink.h>
#include <sys/socket.h>

struct audit_req {
	struct nlmsghdr nlh;
	struct audit_status st;
};

static int audit_request(int fd, int type, const struct audit_status *st)
{
	struct audit_req req = {
		.nlh.nlmsg_len = NLMSG_LENGTH(sizeof(req.st)),
		.nlh.nlmsg_type = type,
		.nlh.nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK,
		.nlh.nlmsg_seq = 1,
	};
	struct sockaddr_nl kernel = { .nl_family = AF_NETLINK };

	if (st)
		req.st = *st;
	return sendto(fd, &req, req.nlh.nlmsg_len, 0,
		      (struct sockaddr *)&kernel, sizeof(kernel)) < 0 ? -errno : 0;
}

/* Read replies until the AUDIT_GET answer arrives; fill *st. */
static int audit_get(int fd, struct audit_status *st)
{
	char buf[8192];
	struct nlmsghdr *nlh;
	ssize_t n;
	int err;

	err = audit_request(fd, AUDIT_GET, NULL);
	if (err)
		return err;
	for (;;) {
		n = recv(fd, buf, sizeof(buf), 0);
		if (n < 0)
			return -errno;
		for (nlh = (struct nlmsghdr *)buf; NLMSG_OK(nlh, n);
		     nlh = NLMSG_NEXT(nlh, n)) {
			if (nlh->nlmsg_type == NLMSG_ERROR) {
				struct nlmsgerr *e = NLMSG_DATA(nlh);

				if (e->error)
					return e->error;
				continue;
			}
			if (nlh->nlmsg_type == AUDIT_GET) {
				memcpy(st, NLMSG_DATA(nlh), sizeof(*st));
				return 0;
			}
		}
	}
}

int main(int argc, char **argv)
{
	struct audit_status st = { 0 };
	int fd, err;

	if (argc != 2 || (strcmp(argv[1], "status") && strcmp(argv[1], "enable"))) {
		fprintf(stderr, "usage: %s status|enable\n", argv[0]);
		return LKTEST_FAIL;
	}
	fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_AUDIT);
	if (fd < 0)
		return lk_setup_failed("socket(NETLINK_AUDIT)", errno);
	if (!strcmp(argv[1], "enable")) {
		struct audit_status set = {
			.mask = AUDIT_STATUS_ENABLED,
			.enabled = 1,
		};

		err = audit_request(fd, AUDIT_SET, &set);
		if (err)
			return lk_setup_failed("AUDIT_SET enabled=1", -err);
	}
	err = audit_get(fd, &st);
	close(fd);
	if (err)
		return lk_setup_failed("AUDIT_GET", -err);
	printf("audit: enabled=%u lost=%u backlog=%u\n", st.enabled, st.lost,
	       st.backlog);
	return LKTEST_MATCH;
}
