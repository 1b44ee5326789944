"""Character pages: the sheet, the creation and editing form with its live R28 check
(``sheets``), and the chip ledger with spending (R15) and the Dealer's grants (``chips``).

Every view loads the campaign through ``campaigns.access`` (404 for anyone not at the table),
asks ``characters.selectors`` who may do what (403 with a plain message otherwise) and calls one
service. Without JavaScript every form posts and redirects; with htmx the chip actions swap the
chips partial and the sheet form gets its tally as the player types.
"""
