import cProfile, pstats, io, time
import pytest
from django.test import Client
from django.db import connection
from django.test.utils import CaptureQueriesContext
from tests.test_big_campaign import biggest, objects, fill
pytestmark = [pytest.mark.django_db]

def test_prof(objects, campaign, dealer, pc_a):
    biggest(campaign, dealer, pc_a, objects)
    client = Client(); client.force_login(dealer)
    for route in ["c/<slug:slug>/", "c/<slug:slug>/sessions/<int:number>/", "c/<slug:slug>/conflicts/", "c/<slug:slug>/conflicts/<int:conflict_id>/replay/", "c/<slug:slug>/conflicts/new/"]:
        url = fill(route, objects); client.get(url)
        with CaptureQueriesContext(connection) as q:
            pr = cProfile.Profile(); pr.enable(); t=time.perf_counter(); r = client.get(url); t=time.perf_counter()-t; pr.disable()
        s = io.StringIO(); pstats.Stats(pr, stream=s).sort_stats("tottime").print_stats(12)
        print("=====", route, r.status_code, f"{t:.2f}s", len(q), "queries", len(r.content), "bytes")
        print("\n".join(l for l in s.getvalue().splitlines()[7:24]))
