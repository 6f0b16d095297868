"""Django's templates, with each render's context taken apart when the render is done.

A context holds its layers and each layer points back at its context: a cycle that only a
garbage collection frees, on the event loop's time in a daphne (docs/performance.md).
Emptied after the render, the context and its layers are freed at once.
"""

from django.template.backends import django as backend
from django.template.context import make_context


class Template(backend.Template):
    def render(self, context=None, request=None):
        context = make_context(context, request, autoescape=self.backend.engine.autoescape)
        try:
            return self.template.render(context)
        except backend.TemplateDoesNotExist as exc:
            backend.reraise(exc, self.backend)
        finally:
            context.dicts.clear()


class DjangoTemplates(backend.DjangoTemplates):
    def from_string(self, template_code):
        return Template(super().from_string(template_code).template, self)

    def get_template(self, template_name):
        return Template(super().get_template(template_name).template, self)
