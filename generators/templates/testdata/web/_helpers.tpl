{{- define "web.labels" -}}
app.kubernetes.io/name: {{ .Name }}
app.kubernetes.io/instance: {{ .Namespace }}-{{ .Name }}
{{- end -}}
