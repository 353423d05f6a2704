// SPDX-License-Identifier: GPL-2.0
/* lktest-poweroff: sync and power the machine off; ends the QEMU run. */
#include <stdio.h>
#include <sys/reboot.h>
#include <unistd.h>

int main(void)
{
	sync();
	reboot(RB_POWER_OFF);
	perror("reboot(RB_POWER_OFF)");
	return 1;
}
