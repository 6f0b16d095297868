"""Django's templates, with each render's context taken apart when the render is done, and
``{% extends %}`` finding a base template's blocks once rather than on every page.

A context holds its layers and each layer points back at its context: a cycle that only a
garbage collection frees, on the event loop's time in a daphne (docs/performance.md).
Emptied after the render, the context and its layers are freed at once.
"""

from django import template
from django.template import loader_tags
from django.template.backends import django as backend
from django.template.base import NodeList
from django.template.context import make_context

# A library every template has (the engine's "builtins"): its ``extends`` replaces Django's.
register = template.Library()


class KnownNodes(NodeList):
    """A parsed template's nodes, which never change, with the nodes of each type found once."""

    def __init__(self, nodes: NodeList):
        super().__init__(nodes)
        self.contains_nontext = nodes.contains_nontext
        self.found: dict = {}

    def get_nodes_by_type(self, nodetype):
        if nodetype not in self.found:
            self.found[nodetype] = super().get_nodes_by_type(nodetype)
        return list(self.found[nodetype])


class ExtendsNode(loader_tags.ExtendsNode):
    """Django's, but the base template's blocks (which Django's looks for by walking every node
    of the base, on every page) are found once per base template the cache holds."""

    def get_parent(self, context):
        parent = super().get_parent(context)
        if type(parent.nodelist) is NodeList:
            parent.nodelist = KnownNodes(parent.nodelist)
        return parent


@register.tag("extends")
def do_extends(parser, token):
    node = loader_tags.do_extends(parser, token)
    return ExtendsNode(node.nodelist, node.parent_name, node.template_dirs)


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
