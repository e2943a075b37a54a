{{- define "website.labels" -}}
app.kubernetes.io/name: website
app.kubernetes.io/instance: {{ .Release.Name }}
{{- end }}
