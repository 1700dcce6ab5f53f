-- Reserved: migration 017 is another branch's (the lead replaces this file with it at merge).
SELECT 1;
