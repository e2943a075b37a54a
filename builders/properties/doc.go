// Package properties writes Java properties files: the one properties
// encoder of opkit, used by the builders' config files and the logging
// renderers, so the escaping cannot drift between them. It uses the
// standard library only, so a module needing just this encoder pulls
// nothing else.
//
//	var w properties.Writer
//	w.Comment("generated, do not edit")
//	w.Set("log4j.rootLogger", "INFO, CONSOLE")
//	text := w.String()
//
//	text = properties.Render(map[string]string{"tickTime": "2000"}) // keys sorted
package properties
