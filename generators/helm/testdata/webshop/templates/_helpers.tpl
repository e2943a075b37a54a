{{- define "webshop.fullname" -}}
{{ .Release.Name }}-{{ .Chart.Name }}
{{- end -}}
