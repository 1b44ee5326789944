"""Campaign pages, split by what they are about (``table``: the campaign page, prep and
sessions; ``seats``: invitations, members and the Dealer role).

Every view loads its campaign through ``campaigns.access`` (non-members 404, players trying a
Dealer action 403). Anonymous visitors are sent to the login page from every page here before
any lookup, so the redirect tells nothing about which campaigns exist; the invitation page
(``seats.join``) is the one exception: it explains the invitation first.
"""
