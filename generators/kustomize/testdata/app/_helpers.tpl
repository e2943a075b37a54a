{{- define "app.greeting" -}}
greeting={{ .Values.greeting | default "hello" }}
{{- end -}}
