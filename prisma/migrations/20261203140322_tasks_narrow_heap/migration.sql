-- Keep the tasks heap narrow: long values (problem statement, patches, test lists, the search
-- vector) go to the TOAST table once a row passes 128 bytes of them, instead of staying
-- compressed inside the row. Filters, facet counts and keyset pages then read about 24 MB of
-- rows at 100,000 tasks instead of about 150 MB (measured with npm run bench:browse), and a list
-- page fetches only its excerpts from TOAST. Rows written before this move as they are next
-- updated, or all at once with VACUUM FULL tasks.
ALTER TABLE "tasks" SET (toast_tuple_target = 128);
