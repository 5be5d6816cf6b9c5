"""The rules of the games: pure, synchronous, no I/O (see docs/rules.md).

Glossary of Russian terms and their identifiers, reused in events, reason codes and locale keys:
стучать → ``knock``, пас → ``pass``, ремиз → ``remiz``, козырь → ``trump``,
прикуп/покупка → ``purchase``, шлейф → ``shleif``, втёмную → ``dark``, разрез → ``razrez``,
взятка → ``trick``, сдающий → ``dealer``, кон → ``pot``, снос → ``drop``,
прикуп Старшины → ``kitty``.
"""
