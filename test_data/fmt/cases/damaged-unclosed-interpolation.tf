output url {
value = "http://${bucket.endpoint"
}
after   =   1
