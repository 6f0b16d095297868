"""The Content-Security-Policy every response carries, from a small middleware of the site's
own (Django 5.2 has none built in).

Scripts come only from the site's own files (`script-src 'self'`: no inline script, no inline
event handler, no eval); so do style sheets, fonts and images (images also as `data:` URLs,
the favicon). A table's socket connects to the same host (`connect-src` names its ws: and wss:
URLs: not every browser counts them as 'self'). Style *attributes* stay allowed
(`style-src-attr 'unsafe-inline'`): the tables lay cards out with them, and they run no code.
No one may frame the site (`frame-ancestors 'none'`, with X-Frame-Options from Django's
clickjacking middleware), forms post only to the site, and the referrer policy is Django's
(SECURE_REFERRER_POLICY, "same-origin").
"""

from django.conf import settings

POLICY = {
    "default-src": "'self'",
    "script-src": "'self'",
    "style-src": "'self'",
    "style-src-attr": "'unsafe-inline'",
    "img-src": "'self' data:",
    "font-src": "'self'",
    "connect-src": "'self' {sockets}",
    "object-src": "'none'",
    "base-uri": "'self'",
    "form-action": "'self'",
    "frame-ancestors": "'none'",
}


def policy(host: str) -> str:
    sockets = f"ws://{host} wss://{host}" if host else ""
    return "; ".join(
        f"{name} {value.format(sockets=sockets)}".strip() for name, value in POLICY.items()
    )


class ContentSecurityPolicy:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        if "Content-Security-Policy" not in response.headers:
            try:
                host = request.get_host()
            except Exception:  # a host not allowed: the error page gets the policy too
                host = ""
            name = "Content-Security-Policy"
            if getattr(settings, "CSP_REPORT_ONLY", False):
                name += "-Report-Only"
            response.headers[name] = policy(host)
        return response
