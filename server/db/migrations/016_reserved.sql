-- 016 is another branch's migration (read receipts); this empty stand-in keeps the numbers without gaps on this
-- branch and goes at the merge, where the real 016 takes its place.
SELECT 1;
