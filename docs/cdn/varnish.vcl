# Varnish in front of Facet (Varnish 7; Debian's `varnish` package). docs/deploy.md, "A CDN in
# front", says how it fits; tests/cdn/ runs it in front of the production server.
#
# The site's port: set `.port` below to the PORT `npm start` serves on (3000 by default), e.g.
#   sed 's/\.port = "3000";/.port = "8080";/' docs/cdn/varnish.vcl > /etc/varnish/default.vcl
# then start Varnish with it, and give the site CDN_PURGE_URL=http://<varnish address>/ so that
# a publish purges it:
#   varnishd -a :80 -f /etc/varnish/default.vcl -s malloc,256m
#
# What it keeps is what the site's headers say (pages: `s-maxage=31536000`; media named by their
# hash: `immutable`; the 404: one minute). What it never keeps: requests with a preview cookie,
# the API routes (the webhook, previews), the embedded mail and content APIs, the probes, and any
# answer that sets a cookie or says nothing of caching.
vcl 4.1;

backend default {
    .host = "127.0.0.1";
    .port = "3000";
}

# Who may purge: the site's own nodes. Add their addresses when Varnish runs on another machine.
acl purgers {
    "127.0.0.1";
    "::1";
}

sub vcl_recv {
    # A publish (server/cdn.mjs): `PURGE /` with the tags in Surrogate-Key, separated by spaces.
    # Every object whose Surrogate-Key holds one of them goes (a ban); the next request for it
    # fetches it again. Without Surrogate-Key, PURGE drops the one URL it names, for an operator:
    # `curl -X PURGE http://varnish/en-us/about`.
    if (req.method == "PURGE") {
        if (client.ip !~ purgers) {
            return (synth(403, "Not allowed to purge"));
        }
        if (!req.http.Surrogate-Key) {
            return (purge);
        }
        if (req.http.Surrogate-Key !~ "^[A-Za-z0-9_.:-]+( [A-Za-z0-9_.:-]+)*$") {
            return (synth(400, "Surrogate-Key must name one or more tags, separated by spaces"));
        }
        # Tested on obj.* only, so the ban lurker clears matching objects in the background. No
        # space in the expression's argument: ban() ends it at the first one.
        ban("obj.http.Surrogate-Key ~ (^|\s)(" + regsuball(req.http.Surrogate-Key, " ", "|") + ")(\s|$)");
        return (synth(200, "Purged"));
    }
    if (req.method != "GET" && req.method != "HEAD") {
        return (pass);
    }
    # The API routes (webhook, preview, exit-preview), the embedded services (mail API, outbox,
    # content API, previews) and the probes: per request, per node or per session. The embedded
    # content API's media are the exception: their own headers say how long to keep them.
    if (req.url ~ "^/(api|local)(/|\?|$)" && req.url !~ "^/local/prismic/media/") {
        return (pass);
    }
    if (req.url ~ "^/(healthz|readyz)(\?|$)") {
        return (pass);
    }
    # A preview session sees drafts: never from the cache, never into it.
    if (req.http.Cookie ~ "(^|;\s*)(__prerender_bypass|__next_preview_data|io\.prismic\.preview)=") {
        return (pass);
    }
    if (req.http.Authorization) {
        return (pass);
    }
    # The site's pages read no other cookie: dropped, so that a visitor's analytics cookie does
    # not make every page a miss.
    unset req.http.Cookie;
    return (hash);
}

sub vcl_backend_response {
    # An answer that sets a cookie belongs to one visitor: passed on, never kept (and the next
    # requests for that URL go to the site for two minutes without waiting on each other).
    if (beresp.http.Set-Cookie) {
        set beresp.uncacheable = true;
        set beresp.ttl = 120s;
        return (deliver);
    }
    # No caching headers: Varnish's default would keep it two minutes. Not here.
    if (!beresp.http.Cache-Control && !beresp.http.Expires) {
        set beresp.uncacheable = true;
        set beresp.ttl = 120s;
        return (deliver);
    }
}

sub vcl_deliver {
    # The tags are for this cache only.
    unset resp.http.Surrogate-Key;
    unset resp.http.Cache-Tag;
}
