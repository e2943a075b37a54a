package templates

import (
	"text/template"
	"text/template/parse"
)

// emptyIfNoValueFunc names the function appended to every printing action
// of a tree. text/template prints a missing value (a nil interface, a
// missing map key) as "<no value>"; Helm deletes that text from its whole
// output afterwards, which also deletes it where a file holds it
// literally. Ending each action with this function makes the action
// itself print nothing instead, and leaves the text of the files as it is:
// a kustomize manifest that says "<no value>" keeps saying it.
const emptyIfNoValueFunc = "opkitEmptyIfNoValue"

// emptyIfNoValue returns "" for a missing value and v otherwise. The
// template engine passes a missing value as nil; a typed nil (a nil
// pointer) is not missing and prints as before.
func emptyIfNoValue(v any) any {
	if v == nil {
		return ""
	}
	return v
}

// printNothingForNoValue ends every printing action of t's templates with
// emptyIfNoValueFunc. It is idempotent, so that the templates a tpl call
// adds can be rewritten without touching the trees already rewritten
// (which concurrent renderings share and only read).
func printNothingForNoValue(t *template.Template) {
	for _, tt := range t.Templates() {
		if tt.Tree != nil && tt.Tree.Root != nil {
			rewriteList(tt.Tree, tt.Tree.Root)
		}
	}
}

func rewriteList(tree *parse.Tree, list *parse.ListNode) {
	if list == nil {
		return
	}
	for _, n := range list.Nodes {
		switch n := n.(type) {
		case *parse.ActionNode:
			rewriteAction(tree, n)
		case *parse.IfNode:
			rewriteList(tree, n.List)
			rewriteList(tree, n.ElseList)
		case *parse.RangeNode:
			rewriteList(tree, n.List)
			rewriteList(tree, n.ElseList)
		case *parse.WithNode:
			rewriteList(tree, n.List)
			rewriteList(tree, n.ElseList)
		case *parse.ListNode:
			rewriteList(tree, n)
		}
	}
}

// rewriteAction appends the function to an action that prints: one that
// declares or assigns variables prints nothing.
func rewriteAction(tree *parse.Tree, a *parse.ActionNode) {
	p := a.Pipe
	if p == nil || len(p.Decl) > 0 || len(p.Cmds) == 0 {
		return
	}
	last := p.Cmds[len(p.Cmds)-1]
	if len(last.Args) == 1 {
		if id, ok := last.Args[0].(*parse.IdentifierNode); ok && id.Ident == emptyIfNoValueFunc {
			return
		}
	}
	id := parse.NewIdentifier(emptyIfNoValueFunc).SetTree(tree).SetPos(a.Pos)
	p.Cmds = append(p.Cmds, &parse.CommandNode{NodeType: parse.NodeCommand, Pos: a.Pos, Args: []parse.Node{id}})
}
