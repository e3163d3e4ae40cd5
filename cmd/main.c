/* main.c - the pcexpand command: argv -> options -> pcx_ calls -> exit. */
#include <stdio.h>

#include <pcx/pcx.h>

int main(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    printf("pcexpand %s\n", pcx_version());
    return 0;
}
